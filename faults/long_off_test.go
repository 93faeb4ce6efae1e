//go:build !faults

package faults

// tagLong is false in a plain `go test ./...`; MB_FAULTS=long still turns
// the long scenarios on.
const tagLong = false
