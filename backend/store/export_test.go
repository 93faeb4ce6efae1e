package store

// PastLatestSQLForTest exposes pastLatestSQL to the package's tests.
func PastLatestSQLForTest() string { return pastLatestSQL }
