// Package imports brings a Reader's library in and takes it out: import
// jobs for every format (a list of URLs, a CSV, this project's own JSON
// export, a Mihon/Tachiyomi .tachibk backup, a public MangaDex list), each
// entry through the Site resolver and the Reader limits, resumed as the
// hourly allowance refills; and the JSON and CSV export. The HTTP faces
// and cmd call it; it sits above the store.
package imports
