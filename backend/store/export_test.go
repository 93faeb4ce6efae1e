package store

// PastLatestSQLForTest exposes pastLatestSQL to the package's tests.
func PastLatestSQLForTest() string { return pastLatestSQL }

// InsertIDsSQLForTest exposes insertIDsSQL, so a test can store ids in
// the same order the store does.
func InsertIDsSQLForTest() string { return insertIDsSQL }
