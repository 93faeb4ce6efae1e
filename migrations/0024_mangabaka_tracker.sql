-- +goose Up

-- MangaBaka joins AniList as a tracker (issue 44;
-- docs/adr/0027-trackers-pull-by-name-push-never-lowers.md, addendum
-- "MangaBaka"): a Reader's tracker_accounts row may be for 'mangabaka'
-- (its media ids are the series_ids of kind 'mb'), and a Progress its
-- pull moved carries source 'mangabaka'. The progress source check also
-- keeps 'sync' (a phone's sync, migration 0020 on its own branch), so
-- whichever of the two migrations runs last leaves both values allowed.
ALTER TABLE tracker_accounts DROP CONSTRAINT tracker_accounts_service_check,
    ADD CONSTRAINT tracker_accounts_service_check CHECK (service IN ('anilist', 'mangabaka'));

ALTER TABLE progress DROP CONSTRAINT progress_source_check,
    ADD CONSTRAINT progress_source_check CHECK (source IN ('reader', 'anilist', 'sync', 'mangabaka'));
