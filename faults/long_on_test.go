//go:build faults

package faults

// tagLong is true when the suite is built with -tags faults (make faults).
const tagLong = true
