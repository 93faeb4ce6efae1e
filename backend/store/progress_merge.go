package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Progress sync is many small requests of one read each, arriving together
// from many Readers. Sent one statement per request, PostgreSQL spends most
// of each upsert on the round trip around it. So a request of one read of
// a bookmarked Series hands it to a few merge workers; a worker takes every
// read waiting (up to mergeMax) and applies them in one statement, one
// round trip. An idle worker takes a read at once, so a lone request waits
// for nothing; under load the reads that queued meanwhile share a trip. A
// caller whose context ends stops waiting with its context's error; its
// read may still apply afterwards, which is harmless (a read is idempotent
// and the client sends it again).

const (
	mergeWorkers = 4  // statements in flight at once (the pool has at least 8 connections)
	mergeMax     = 64 // reads per statement
	// mergeTimeout bounds one merged statement; callers wait on their own
	// context as well.
	mergeTimeout = 20 * time.Second
)

// errStoreClosed answers reads handed over after Close.
var errStoreClosed = errors.New("store: closed")

type mergeResult struct {
	have, moved bool
	past        *string // the Latest Chapter number a read too far past it was refused against
	err         error
}

// result is the ReadResult of a read whose bookmark exists.
func (r mergeResult) result() ReadResult {
	if r.past != nil {
		return ReadResult{Refused: ErrPastLatest, Latest: *r.past}
	}
	return ReadResult{Moved: r.moved}
}

type mergeJob struct {
	r    Read
	done chan mergeResult // buffered: a worker never waits for a caller
}

type mergeKey struct {
	reader         int64
	site, seriesID string
}

// merger runs the merge workers of one Store; they start on first use.
type merger struct {
	s     *Store
	jobs  chan *mergeJob
	start sync.Once
	stop  chan struct{}
	halt  sync.Once
	wg    sync.WaitGroup
}

func newMerger(s *Store) *merger {
	return &merger{s: s, jobs: make(chan *mergeJob, mergeWorkers*mergeMax), stop: make(chan struct{})}
}

// close stops the workers; reads handed over afterwards get errStoreClosed.
func (m *merger) close() {
	m.halt.Do(func() { close(m.stop) })
	m.wg.Wait()
}

// apply runs one read of a bookmarked Series through a merge worker.
func (m *merger) apply(ctx context.Context, r Read) (mergeResult, error) {
	m.start.Do(func() {
		for i := 0; i < mergeWorkers; i++ {
			m.wg.Add(1)
			go m.work()
		}
	})
	j := &mergeJob{r: r, done: make(chan mergeResult, 1)}
	select {
	case m.jobs <- j:
	case <-ctx.Done():
		return mergeResult{}, ctx.Err()
	case <-m.stop:
		return mergeResult{}, errStoreClosed
	}
	select {
	case res := <-j.done:
		return res, res.err
	case <-ctx.Done():
		return mergeResult{}, ctx.Err()
	case <-m.stop:
		return mergeResult{}, errStoreClosed
	}
}

func (m *merger) work() {
	defer m.wg.Done()
	batch := make([]*mergeJob, 0, mergeMax)
	for {
		select {
		case j := <-m.jobs:
			batch = append(batch[:0], j)
		case <-m.stop:
			return
		}
	fill:
		for len(batch) < mergeMax {
			select {
			case j := <-m.jobs:
				batch = append(batch, j)
			default:
				break fill
			}
		}
		m.run(batch)
	}
}

// run applies a batch in rounds of distinct keys, so two reads of one
// Series apply one after the other, in the order they arrived.
func (m *merger) run(batch []*mergeJob) {
	for len(batch) > 0 {
		seen := make(map[mergeKey]bool, len(batch))
		var now, later []*mergeJob
		for _, j := range batch {
			k := mergeKey{j.r.ReaderID, j.r.Site, j.r.SeriesID}
			if seen[k] {
				later = append(later, j)
				continue
			}
			seen[k] = true
			now = append(now, j)
		}
		m.exec(now)
		batch = later
	}
}

// exec applies reads of distinct keys in one statement. When it fails for
// a reason other than an unreachable database, each read runs alone, so
// one read's failure (say, its bookmark removed meanwhile) is its own.
func (m *merger) exec(jobs []*mergeJob) {
	ctx, cancel := context.WithTimeout(context.Background(), mergeTimeout)
	defer cancel()
	if len(jobs) > 1 {
		res, err := m.execMany(ctx, jobs)
		if err == nil || IsUnavailable(err) {
			for i, j := range jobs {
				if err != nil {
					j.done <- mergeResult{err: err}
				} else {
					j.done <- res[i]
				}
			}
			return
		}
	}
	for _, j := range jobs {
		var res mergeResult
		r := j.r
		res.err = m.s.pool.QueryRow(ctx, ProgressUpsertSQL, r.ReaderID, r.Site, r.SeriesID, r.Number, r.URL, r.ReadAt).
			Scan(&res.have, &res.moved, &res.past)
		if res.err != nil {
			res.err = fmt.Errorf("store: apply read: %w", res.err)
		}
		j.done <- res
	}
}

func (m *merger) execMany(ctx context.Context, jobs []*mergeJob) ([]mergeResult, error) {
	n := len(jobs)
	readers, sites, ids, numbers, urls, ats := make([]int64, n), make([]string, n), make([]string, n),
		make([]string, n), make([]string, n), make([]time.Time, n)
	for i, j := range jobs {
		readers[i], sites[i], ids[i], numbers[i], urls[i], ats[i] = j.r.ReaderID, j.r.Site, j.r.SeriesID, j.r.Number, j.r.URL, j.r.ReadAt
	}
	rows, err := m.s.pool.Query(ctx, progressMergeSQL, readers, sites, ids, numbers, urls, ats)
	if err != nil {
		return nil, fmt.Errorf("store: apply reads: %w", err)
	}
	defer rows.Close()
	out := make([]mergeResult, 0, n)
	for rows.Next() {
		var res mergeResult
		if err := rows.Scan(&res.have, &res.moved, &res.past); err != nil {
			return nil, fmt.Errorf("store: apply reads: %w", err)
		}
		out = append(out, res)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: apply reads: %w", err)
	}
	if len(out) != n {
		return nil, fmt.Errorf("store: apply reads: %d answers for %d reads", len(out), n)
	}
	return out, nil
}
