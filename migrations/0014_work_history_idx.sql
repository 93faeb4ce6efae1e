-- +goose Up

-- Linking by ids asks, for every Series carrying a new id, whether it has
-- a Work's history (store/works_link_set.go): unlinked from a Work, or
-- held by a Reader's hand link. Both tables are keyed by Work or Reader
-- first; these indexes answer the question by Series.
CREATE INDEX work_unlinks_series_idx ON work_unlinks (site, series_id);
CREATE INDEX work_hand_links_series_idx ON work_hand_links (site, series_id);
