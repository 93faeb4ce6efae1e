// Package syncclient is a phone for the tests: SyncYomi clients written
// from TachiyomiSY's sync code (each file names the file and commit it
// follows), speaking to the server over HTTP as the apps do.
package syncclient
