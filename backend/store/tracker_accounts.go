package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// A Reader's trackers (tracker_accounts, migration 0012): the user name a
// pull reads, the switches, the sealed token, the state the settings card
// shows. docs/adr/0027-trackers-pull-by-name-push-never-lowers.md.

// The states of a tracker.
const (
	TrackerOK        = "ok"
	TrackerReconnect = "reconnect"
	TrackerFailing   = "failing"
	TrackerOff       = "off"
)

// MaxTrackerUnmatched bounds the unmatched entries kept from one pull.
const MaxTrackerUnmatched = 200

// maxTrackerError bounds the reason stored with a state.
const maxTrackerError = 300

// ErrTrackerLeaseLost is returned when a pull's result arrives after its
// lease passed to another process; nothing of it is written.
var ErrTrackerLeaseLost = errors.New("store: the tracker pull's lease was lost")

// TrackerAccount is one Reader's tracker as the settings card shows it.
// It never holds the token, sealed or not.
type TrackerAccount struct {
	ReaderID   int64
	Service    string
	Username   string
	Pull, Push bool
	HasToken   bool // a sealed token is stored (it may not open: State reconnect)
	State      string
	Error      string
	LastPullAt *time.Time
	LastPushAt *time.Time
	NextPullAt *time.Time
	// LastPullMoved is how many bookmarks the last pull moved forward
	// (nil: none recorded yet).
	LastPullMoved *int
}

// Connected is a token stored and not refused.
func (a TrackerAccount) Connected() bool { return a.HasToken && a.State != TrackerReconnect }

// TrackerEntry is one entry of a tracker list kept for the Reader: one
// "not on a Site we read yet".
type TrackerEntry struct {
	MediaID  string `json:"media_id"`
	Progress int    `json:"progress"`
	Status   string `json:"status,omitempty"`
}

const trackerAccountCols = `reader_id, service, username, pull, push, token_sealed IS NOT NULL, state, error,
	last_pull_at, last_push_at, next_pull_at, last_pull_moved`

func scanTrackerAccount(row scanner) (TrackerAccount, error) {
	var a TrackerAccount
	err := row.Scan(&a.ReaderID, &a.Service, &a.Username, &a.Pull, &a.Push, &a.HasToken, &a.State, &a.Error,
		&a.LastPullAt, &a.LastPushAt, &a.NextPullAt, &a.LastPullMoved)
	return a, err
}

// TrackerAccounts lists a Reader's trackers, by service.
func (s *Store) TrackerAccounts(ctx context.Context, readerID int64) ([]TrackerAccount, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+trackerAccountCols+` FROM tracker_accounts
		WHERE reader_id = $1 ORDER BY service`, readerID)
	if err != nil {
		return nil, fmt.Errorf("store: tracker accounts: %w", err)
	}
	defer rows.Close()
	var out []TrackerAccount
	for rows.Next() {
		a, err := scanTrackerAccount(rows)
		if err != nil {
			return nil, fmt.Errorf("store: tracker accounts: %w", err)
		}
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: tracker accounts: %w", err)
	}
	return out, nil
}

// TrackerAccount returns one of a Reader's trackers, or ErrNotFound.
func (s *Store) TrackerAccount(ctx context.Context, readerID int64, service string) (TrackerAccount, error) {
	a, err := scanTrackerAccount(s.pool.QueryRow(ctx, `SELECT `+trackerAccountCols+` FROM tracker_accounts
		WHERE reader_id = $1 AND service = $2`, readerID, service))
	if err != nil {
		return TrackerAccount{}, notFound("tracker account", err)
	}
	return a, nil
}

// TrackerSettings is what a Reader sets on a tracker.
type TrackerSettings struct {
	ReaderID   int64
	Service    string
	Username   string
	Pull, Push bool
	Now        time.Time // the next pull is due at once when pull is on
}

// PutTrackerSettings stores a Reader's user name and switches. A checked
// user name clears a pull failure; a refused token stays refused
// (reconnect) until a new one; with both switches off the state is off. A
// changed user name forgets the counts remembered for the old one.
func (s *Store) PutTrackerSettings(ctx context.Context, t TrackerSettings) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var old *string
		err := tx.QueryRow(ctx, `SELECT username FROM tracker_accounts WHERE reader_id = $1 AND service = $2 FOR UPDATE`,
			t.ReaderID, t.Service).Scan(&old)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("store: put tracker settings: %w", err)
		}
		if old != nil && *old != t.Username {
			if _, err := tx.Exec(ctx, `DELETE FROM tracker_remote WHERE reader_id = $1 AND service = $2`, t.ReaderID, t.Service); err != nil {
				return fmt.Errorf("store: put tracker settings: %w", err)
			}
			if _, err := tx.Exec(ctx, `UPDATE tracker_accounts SET unmatched = '[]' WHERE reader_id = $1 AND service = $2`, t.ReaderID, t.Service); err != nil {
				return fmt.Errorf("store: put tracker settings: %w", err)
			}
		}
		_, err = tx.Exec(ctx, `
			INSERT INTO tracker_accounts AS a (reader_id, service, username, pull, push, state, next_pull_at, push_since)
			VALUES ($1, $2, $3, $4, $5, CASE WHEN $4 OR $5 THEN 'ok' ELSE 'off' END, $6, CASE WHEN $5 THEN now() END)
			ON CONFLICT (reader_id, service) DO UPDATE SET
				username = excluded.username, pull = excluded.pull, push = excluded.push,
				push_since = CASE WHEN NOT excluded.push THEN NULL
					WHEN a.push AND a.push_since IS NOT NULL THEN a.push_since ELSE now() END,
				state = CASE WHEN a.state = 'reconnect' THEN 'reconnect' ELSE excluded.state END,
				error = CASE WHEN a.state = 'reconnect' THEN a.error ELSE '' END,
				failures = 0,
				next_pull_at = CASE WHEN excluded.pull AND (NOT a.pull OR a.username <> excluded.username
					OR a.next_pull_at IS NULL) THEN excluded.next_pull_at ELSE a.next_pull_at END,
				next_push_at = NULL,
				updated_at = now()`,
			t.ReaderID, t.Service, t.Username, t.Pull, t.Push, t.Now)
		if err != nil {
			return fmt.Errorf("store: put tracker settings: %w", err)
		}
		return nil
	})
}

// SetTrackerToken stores a Reader's token, sealed by the caller: the
// tracker is connected (state ok), pushes are on (for Progress that moves
// from now on, or since push was first turned on), and the account's name
// becomes the user name when none was set.
func (s *Store) SetTrackerToken(ctx context.Context, readerID int64, service string, sealed []byte, account string) error {
	_, err := s.pool.Exec(ctx, `
		INSERT INTO tracker_accounts AS a (reader_id, service, username, push, token_sealed, state, push_since)
		VALUES ($1, $2, $3, true, $4, 'ok', now())
		ON CONFLICT (reader_id, service) DO UPDATE SET
			token_sealed = excluded.token_sealed, push = true,
			push_since = CASE WHEN a.push AND a.push_since IS NOT NULL THEN a.push_since ELSE now() END,
			username = CASE WHEN a.username = '' THEN excluded.username ELSE a.username END,
			state = 'ok', error = '', next_push_at = NULL, updated_at = now()`,
		readerID, service, account, sealed)
	if err != nil {
		return fmt.Errorf("store: set tracker token: %w", err)
	}
	return nil
}

// SetTrackerState sets a tracker's state and its reason (cut to 300
// bytes; a person's sentence, never a token). Reconnect also stops the
// Reader's waiting pushes.
func (s *Store) SetTrackerState(ctx context.Context, readerID int64, service, state, reason string) error {
	_, err := s.pool.Exec(ctx, `
		WITH a AS (
			UPDATE tracker_accounts SET state = $3, error = $4, updated_at = now()
			WHERE reader_id = $1 AND service = $2 RETURNING reader_id
		)
		DELETE FROM tracker_pending p USING a
		WHERE $3 = 'reconnect' AND p.reader_id = a.reader_id AND p.service = $2`,
		readerID, service, state, cutBytes(reason, maxTrackerError))
	if err != nil {
		return fmt.Errorf("store: set tracker state: %w", err)
	}
	return nil
}

// DeleteTrackerAccount forgets a Reader's tracker: the user name, the
// token, the remembered counts and the waiting pushes. ErrNotFound when
// there was none.
func (s *Store) DeleteTrackerAccount(ctx context.Context, readerID int64, service string) error {
	tag, err := s.pool.Exec(ctx, `DELETE FROM tracker_accounts WHERE reader_id = $1 AND service = $2`, readerID, service)
	if err != nil {
		return fmt.Errorf("store: delete tracker account: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return ErrNotFound
	}
	return nil
}

// TrackerPullNow makes a Reader's pull due at now; false when the Reader
// has no such tracker with pull on.
func (s *Store) TrackerPullNow(ctx context.Context, readerID int64, service string, now time.Time) (bool, error) {
	tag, err := s.pool.Exec(ctx, `UPDATE tracker_accounts SET next_pull_at = $3, failures = 0, updated_at = now()
		WHERE reader_id = $1 AND service = $2 AND pull AND username <> ''`, readerID, service, now)
	if err != nil {
		return false, fmt.Errorf("store: tracker pull now: %w", err)
	}
	return tag.RowsAffected() > 0, nil
}

// TrackerUnmatched returns the last pull's entries no bookmark matched.
func (s *Store) TrackerUnmatched(ctx context.Context, readerID int64, service string) ([]TrackerEntry, error) {
	var raw []byte
	err := s.pool.QueryRow(ctx, `SELECT unmatched FROM tracker_accounts WHERE reader_id = $1 AND service = $2`,
		readerID, service).Scan(&raw)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("store: tracker unmatched: %w", err)
	}
	var out []TrackerEntry
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("store: tracker unmatched: %w", err)
	}
	return out, nil
}

// SealedToken is one stored token, sealed.
type SealedToken struct {
	ReaderID int64
	Sealed   []byte
}

// TrackerSealedTokens lists the sealed tokens of service's trackers not
// already in reconnect (the start-up check opens each).
func (s *Store) TrackerSealedTokens(ctx context.Context, service string) ([]SealedToken, error) {
	rows, err := s.pool.Query(ctx, `SELECT reader_id, token_sealed FROM tracker_accounts
		WHERE service = $1 AND token_sealed IS NOT NULL AND state <> 'reconnect' ORDER BY reader_id`, service)
	if err != nil {
		return nil, fmt.Errorf("store: tracker sealed tokens: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (SealedToken, error) {
		var t SealedToken
		return t, r.Scan(&t.ReaderID, &t.Sealed)
	})
	if err != nil {
		return nil, fmt.Errorf("store: tracker sealed tokens: %w", err)
	}
	return out, nil
}

// TrackerStateCounts counts every Reader's trackers by state (the admin
// summary and `mbctl notices`).
func (s *Store) TrackerStateCounts(ctx context.Context) (map[string]int, error) {
	rows, err := s.pool.Query(ctx, `SELECT state, count(*) FROM tracker_accounts GROUP BY state`)
	if err != nil {
		return nil, fmt.Errorf("store: tracker state counts: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var st string
		var n int
		if err := rows.Scan(&st, &n); err != nil {
			return nil, fmt.Errorf("store: tracker state counts: %w", err)
		}
		out[st] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: tracker state counts: %w", err)
	}
	return out, nil
}
