package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// What a second tracker (MangaBaka, migration 0024) needs of the tracker
// rows beside AniList's: its pull's Progress source, and the sealed token
// a pull reads with (MangaBaka's lists are private).

// trackerPullSQLs are trackerPullSQL for each tracker: the same
// forward-only upsert, with the tracker's name as the Progress source
// (progress_source_check lists them). Only these names reach the SQL.
var trackerPullSQLs = map[string]string{
	"anilist": trackerPullSQL,
	"mangabaka": progressUpsertFrom(`SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[])
			WITH ORDINALITY`, `NULL::text`, "mangabaka"),
}

// trackerPullSQLOf is the pull's upsert for service, or an error for a
// tracker the schema does not know.
func trackerPullSQLOf(service string) (string, error) {
	q, ok := trackerPullSQLs[service]
	if !ok {
		return "", fmt.Errorf("store: no progress source for tracker %q", service)
	}
	return q, nil
}

// TrackerToken returns a Reader's sealed token for service when one is
// stored and not refused (state reconnect); ErrNotFound otherwise. A pull
// of a tracker whose lists are private opens it for that pull only.
func (s *Store) TrackerToken(ctx context.Context, readerID int64, service string) ([]byte, error) {
	var sealed []byte
	err := s.pool.QueryRow(ctx, `SELECT token_sealed FROM tracker_accounts
		WHERE reader_id = $1 AND service = $2 AND token_sealed IS NOT NULL AND state <> 'reconnect'`,
		readerID, service).Scan(&sealed)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("store: tracker token: %w", err)
	}
	return sealed, nil
}
