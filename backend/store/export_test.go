package store

import (
	"context"

	"github.com/pressly/goose/v3"
)

// InsertIDsSQLForTest exposes insertIDsSQL, so a test can store ids in
// the same order the store does.
func InsertIDsSQLForTest() string { return insertIDsSQL }

// MigrateToForTest applies the migrations up to and including version, so
// a test can seed rows as an older schema held them.
func (s *Store) MigrateToForTest(ctx context.Context, version int64) error {
	return s.withGoose(func(p *goose.Provider) error {
		_, err := p.UpTo(ctx, version)
		return err
	})
}
