package store

// InsertIDsSQLForTest exposes insertIDsSQL, so a test can store ids in
// the same order the store does.
func InsertIDsSQLForTest() string { return insertIDsSQL }
