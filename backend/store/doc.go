// Package store is the only package with SQL. It wraps a pgx connection
// pool, applies the embedded migrations with goose, and offers one file of
// methods per table. pgx.ErrNoRows becomes ErrNotFound here; callers never
// see pgx errors they would have to interpret.
package store
