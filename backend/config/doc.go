// Package config turns the process environment into a validated Config.
// Every error names the variable and says what is wrong without echoing a
// secret value.
package config
