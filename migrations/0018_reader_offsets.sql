-- +goose Up

-- A member's offset is per Reader (docs/adr/0021-works-link-by-ids.md,
-- addendum "Offsets per Reader"). A Reader's own offset on a shared member
-- changes only that Reader's Work numbers, view and notices; the shared
-- offset (work_members."offset") is set by the Owner, or by two Readers
-- who set the same value, and is what drift is judged on. A Reader's
-- effective offset is coalesce(their row here, the shared one)
-- (store/works_numbers.go, readerOffSQL). The row goes with the member
-- (its Series leaving the Work) or the Reader; it holds only while the
-- member is in work_id (a merge moves the member, and the Reader sets it
-- again if it still applies).
CREATE TABLE work_reader_offsets (
    reader_id  bigint NOT NULL REFERENCES readers (id) ON DELETE CASCADE,
    work_id    bigint NOT NULL REFERENCES works (id) ON DELETE CASCADE,
    site       text NOT NULL,
    series_id  text NOT NULL,
    "offset"   numeric NOT NULL CHECK (abs("offset") <= 100000),
    set_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (reader_id, site, series_id),
    FOREIGN KEY (site, series_id) REFERENCES work_members (site, series_id) ON DELETE CASCADE
);
CREATE INDEX work_reader_offsets_member_idx ON work_reader_offsets (site, series_id);

-- Who set the shared offsets stored before is not recorded: any Reader of
-- the Work could have (W5-2), so none of them may stand in another
-- Reader's numbers. Each non-zero one is set back to 0 and kept here, for
-- the Work page and /admin to show ("an offset of +100 was set on this
-- member; set it again if it was yours").
CREATE TABLE work_offset_resets (
    site       text NOT NULL,
    series_id  text NOT NULL,
    work_id    bigint NOT NULL REFERENCES works (id) ON DELETE CASCADE,
    "offset"   numeric NOT NULL,
    reset_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (site, series_id),
    FOREIGN KEY (site, series_id) REFERENCES work_members (site, series_id) ON DELETE CASCADE
);

INSERT INTO work_offset_resets (site, series_id, work_id, "offset")
SELECT site, series_id, work_id, "offset" FROM work_members WHERE "offset" <> 0;

-- The Work numbers of those Works change: a new epoch in each (migration
-- 0015), so the numbers their members showed before count as shown before
-- the change. A Reader is then told a number as their own Site shows it
-- unless they were told it, read it, or another member they bookmark
-- showed it: no old chapter is told again, and none is silenced by the
-- old offset.
UPDATE work_members SET "offset" = 0, drift_since = NULL WHERE "offset" <> 0;
SELECT work_epoch(array_agg(DISTINCT work_id)) FROM work_offset_resets;
