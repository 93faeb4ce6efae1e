-- The schema the migrations add up to, as pg_dump --schema-only --no-owner
-- --no-privileges prints a migrated database. Written by TestSchemaGolden:
-- go test ./backend/store -run TestSchemaGolden -update. Do not edit by hand.

--
-- Name: pg_trgm; Type: EXTENSION; Schema: -; Owner: -
--

CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

--
-- Name: EXTENSION pg_trgm; Type: COMMENT; Schema: -; Owner: -
--

COMMENT ON EXTENSION pg_trgm IS 'text similarity measurement and index searching based on trigrams';

--
-- Name: dissolve_work(bigint); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.dissolve_work(w bigint) RETURNS boolean
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM works WHERE id = w) THEN
        RETURN false;
    END IF;
    IF (SELECT count(*) FROM (
            SELECT site, series_id FROM work_members WHERE work_id = w
            UNION SELECT site, series_id FROM work_hand_links WHERE work_id = w) x) >= 2 THEN
        RETURN false;
    END IF;
    INSERT INTO work_former_members (work_id, site, series_id)
        SELECT work_id, site, series_id FROM work_members WHERE work_id = w ON CONFLICT DO NOTHING;
    DELETE FROM work_members WHERE work_id = w;
    DELETE FROM work_hand_links WHERE work_id = w;
    DELETE FROM work_prefs WHERE work_id = w;
    UPDATE reader_notices SET work_id = NULL, work_number = NULL WHERE work_id = w AND done_at IS NULL;
    RETURN true;
END
$$;

--
-- Name: has_work_history(text, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.has_work_history(site text, series_id text) RETURNS boolean
    LANGUAGE sql STABLE
    AS $$
    SELECT EXISTS (SELECT 1 FROM work_former_members x
            WHERE x.site = has_work_history.site AND x.series_id = has_work_history.series_id)
        OR EXISTS (SELECT 1 FROM work_unlinks x
            WHERE x.site = has_work_history.site AND x.series_id = has_work_history.series_id)
        OR EXISTS (SELECT 1 FROM work_hand_links x
            WHERE x.site = has_work_history.site AND x.series_id = has_work_history.series_id);
$$;

--
-- Name: lane_wake_added(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.lane_wake_added() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM pg_notify('mangabookmark_lane_wake', s.site || '|')
        FROM (SELECT DISTINCT site FROM added) s;
    RETURN NULL;
END
$$;

--
-- Name: lane_wake_sooner(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.lane_wake_sooner() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM pg_notify('mangabookmark_lane_wake', NEW.site || '|');
    RETURN NULL;
END
$$;

--
-- Name: link_by_id(text, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.link_by_id(p_kind text, p_value text) RETURNS bigint
    LANGUAGE plpgsql
    AS $$
DECLARE
    target bigint;
    fresh  boolean := false;
    w      bigint;
BEGIN
    IF (SELECT count(DISTINCT (site, series_id)) FROM series_ids
            WHERE kind = p_kind AND value = p_value AND reader_id IS NULL) < 2 THEN
        RETURN NULL;
    END IF;
    SELECT min(m.work_id) INTO target
        FROM series_ids i JOIN work_members m ON m.site = i.site AND m.series_id = i.series_id
        WHERE i.kind = p_kind AND i.value = p_value AND i.reader_id IS NULL;
    IF target IS NULL THEN
        SELECT min(f.work_id) INTO target
            FROM series_ids i JOIN work_former_members f ON f.site = i.site AND f.series_id = i.series_id
            WHERE i.kind = p_kind AND i.value = p_value AND i.reader_id IS NULL;
    END IF;
    IF target IS NULL THEN
        INSERT INTO works DEFAULT VALUES RETURNING id INTO target;
        fresh := true;
    END IF;
    FOR w IN SELECT DISTINCT m.work_id
        FROM series_ids i JOIN work_members m ON m.site = i.site AND m.series_id = i.series_id
        WHERE i.kind = p_kind AND i.value = p_value AND i.reader_id IS NULL AND m.work_id <> target
    LOOP
        -- A merge that would give the Work two Series of one Site is not made.
        CONTINUE WHEN EXISTS (SELECT 1 FROM work_members a JOIN work_members b
                ON b.work_id = target AND b.site = a.site
            WHERE a.work_id = w AND NOT EXISTS (SELECT 1 FROM work_unlinks u
                WHERE u.work_id = target AND u.site = a.site AND u.series_id = a.series_id));
        UPDATE work_members m SET work_id = target
            WHERE m.work_id = w AND NOT EXISTS (SELECT 1 FROM work_unlinks u
                WHERE u.work_id = target AND u.site = m.site AND u.series_id = m.series_id);
        INSERT INTO work_unlinks (work_id, site, series_id, reader_id, created_at)
            SELECT target, site, series_id, reader_id, created_at FROM work_unlinks WHERE work_id = w
            ON CONFLICT DO NOTHING;
        INSERT INTO work_reader_unlinks (reader_id, work_id, site, series_id, created_at)
            SELECT reader_id, target, site, series_id, created_at FROM work_reader_unlinks WHERE work_id = w
            ON CONFLICT DO NOTHING;
        UPDATE work_hand_links SET work_id = target WHERE work_id = w;
        UPDATE reader_notices SET work_id = target WHERE work_id = w
            AND NOT EXISTS (SELECT 1 FROM reader_notices o WHERE o.reader_id = reader_notices.reader_id
                AND o.work_id = target AND o.work_number = reader_notices.work_number);
        DELETE FROM works WHERE id = w AND NOT EXISTS (SELECT 1 FROM work_members WHERE work_id = w);
    END LOOP;
    INSERT INTO work_members (site, series_id, work_id, linked_by)
        SELECT DISTINCT ON (i.site) i.site, i.series_id, target, 'id:' || p_kind FROM series_ids i
        WHERE i.kind = p_kind AND i.value = p_value AND i.reader_id IS NULL
            AND NOT EXISTS (SELECT 1 FROM work_members m WHERE m.site = i.site AND m.series_id = i.series_id)
            AND NOT EXISTS (SELECT 1 FROM work_members m WHERE m.work_id = target AND m.site = i.site)
            AND NOT EXISTS (SELECT 1 FROM work_unlinks u
                WHERE u.work_id = target AND u.site = i.site AND u.series_id = i.series_id)
        ORDER BY i.site, i.series_id
        ON CONFLICT DO NOTHING;
    -- Carriers left out of the Work (not unlinked from it) are refused.
    INSERT INTO work_link_refusals (site, series_id, kind, value, work_id)
        SELECT DISTINCT i.site, i.series_id, p_kind, p_value, target FROM series_ids i
        WHERE i.kind = p_kind AND i.value = p_value AND i.reader_id IS NULL
            AND NOT EXISTS (SELECT 1 FROM work_members m
                WHERE m.work_id = target AND m.site = i.site AND m.series_id = i.series_id)
            AND NOT EXISTS (SELECT 1 FROM work_unlinks u
                WHERE u.work_id = target AND u.site = i.site AND u.series_id = i.series_id)
        ON CONFLICT (site, series_id, kind, value) DO UPDATE SET work_id = excluded.work_id, refused_at = now();
    DELETE FROM work_link_refusals r WHERE r.work_id = target AND EXISTS (SELECT 1 FROM work_members m
        WHERE m.work_id = target AND m.site = r.site AND m.series_id = r.series_id);
    IF fresh AND (SELECT count(*) FROM work_members WHERE work_id = target) < 2 THEN
        DELETE FROM works WHERE id = target;
        RETURN NULL;
    END IF;
    IF dissolve_work(target) THEN
        RETURN NULL;
    END IF;
    DELETE FROM work_former_members WHERE work_id = target;
    RETURN target;
END
$$;

--
-- Name: reader_notices_unbookmarked(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.reader_notices_unbookmarked() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    DELETE FROM reader_notices n USING gone g
        WHERE n.reader_id = g.reader_id AND n.site = g.site AND n.series_id = g.series_id;
    RETURN NULL;
END
$$;

--
-- Name: series_titles(text, text[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.series_titles(title text, alt_titles text[]) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN ((title || ' / '::text) || array_to_string(alt_titles, ' / '::text));

--
-- Name: work_epoch(bigint[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.work_epoch(ws bigint[]) RETURNS void
    LANGUAGE sql
    AS $$
    UPDATE work_members m SET joined_max = (SELECT s.max_number FROM series s
            WHERE s.site = m.site AND s.series_id = m.series_id)
    WHERE m.work_id = ANY (ws) AND m.joined_max IS DISTINCT FROM (SELECT s.max_number FROM series s
            WHERE s.site = m.site AND s.series_id = m.series_id);
$$;

--
-- Name: work_member_start(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.work_member_start() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    NEW.joined_max := (SELECT s.max_number FROM series s
        WHERE s.site = NEW.site AND s.series_id = NEW.series_id);
    RETURN NEW;
END
$$;

--
-- Name: work_members_joined(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.work_members_joined() RETURNS trigger
    LANGUAGE plpgsql
    AS $_$
DECLARE
    ws  bigint[];
    due boolean;
BEGIN
    SELECT array_agg(DISTINCT work_id) INTO ws FROM joined;
    IF ws IS NULL THEN
        RETURN NULL;
    END IF;
    EXECUTE 'SELECT EXISTS (SELECT 1 FROM work_members m WHERE m.work_id = ANY ($1)
        AND m.joined_max IS DISTINCT FROM (SELECT s.max_number FROM series s
            WHERE s.site = m.site AND s.series_id = m.series_id))' INTO due USING ws;
    IF due THEN
        PERFORM work_epoch(ws);
    END IF;
    RETURN NULL;
END
$_$;

--
-- Name: work_members_moved(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.work_members_moved() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    left_ws   bigint[];
    joined_ws bigint[];
BEGIN
    SELECT array_agg(DISTINCT o.work_id), array_agg(DISTINCT n.work_id) INTO left_ws, joined_ws
        FROM gone o JOIN moved n ON n.site = o.site AND n.series_id = o.series_id
        WHERE n.work_id <> o.work_id;
    IF joined_ws IS NULL THEN
        RETURN NULL;
    END IF;
    PERFORM dissolve_work(w) FROM unnest(left_ws) AS w;
    PERFORM work_epoch(joined_ws);
    RETURN NULL;
END
$$;

--
-- Name: work_members_thin(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.work_members_thin() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM dissolve_work(g.work_id) FROM (SELECT DISTINCT work_id FROM gone) g;
    RETURN NULL;
END
$$;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: bookmark_undo; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.bookmark_undo (
    reader_id bigint NOT NULL,
    token text NOT NULL,
    expires_at timestamp with time zone NOT NULL
);

--
-- Name: bookmark_undo_items; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.bookmark_undo_items (
    reader_id bigint NOT NULL,
    site text NOT NULL,
    series_id text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    notify_mode text NOT NULL,
    notify_pile integer NOT NULL,
    notify_pile_days integer NOT NULL,
    added_by text NOT NULL,
    state text NOT NULL,
    state_by_hand boolean NOT NULL,
    state_at timestamp with time zone,
    progress_number numeric,
    progress_url text DEFAULT ''::text NOT NULL,
    progress_read_at timestamp with time zone,
    progress_updated_at timestamp with time zone,
    progress_source text DEFAULT 'reader'::text NOT NULL,
    given_title text,
    CONSTRAINT bookmark_undo_items_given_title_check CHECK (((given_title IS NULL) OR ((char_length(given_title) >= 1) AND (char_length(given_title) <= 300))))
);

--
-- Name: bookmarks; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.bookmarks (
    reader_id bigint NOT NULL,
    site text NOT NULL,
    series_id text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    notify_mode text DEFAULT 'each'::text NOT NULL,
    notify_pile integer DEFAULT 3 NOT NULL,
    notify_pile_days integer DEFAULT 7 NOT NULL,
    added_by text DEFAULT 'reader'::text NOT NULL,
    state text DEFAULT 'reading'::text NOT NULL,
    state_by_hand boolean DEFAULT false NOT NULL,
    state_at timestamp with time zone,
    given_title text,
    CONSTRAINT bookmarks_added_by_check CHECK ((added_by = ANY (ARRAY['reader'::text, 'read'::text]))),
    CONSTRAINT bookmarks_given_title_check CHECK (((given_title IS NULL) OR ((char_length(given_title) >= 1) AND (char_length(given_title) <= 300)))),
    CONSTRAINT bookmarks_notify_mode_check CHECK ((notify_mode = ANY (ARRAY['each'::text, 'off'::text, 'pile'::text]))),
    CONSTRAINT bookmarks_notify_pile_check CHECK (((notify_pile >= 1) AND (notify_pile <= 1000))),
    CONSTRAINT bookmarks_notify_pile_days_check CHECK (((notify_pile_days >= 1) AND (notify_pile_days <= 60))),
    CONSTRAINT bookmarks_state_check CHECK ((state = ANY (ARRAY['reading'::text, 'plan'::text, 'on_hold'::text, 'dropped'::text, 'completed'::text, 'rereading'::text])))
);

--
-- Name: chapter_events; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.chapter_events (
    id bigint NOT NULL,
    site text NOT NULL,
    series_id text NOT NULL,
    number numeric NOT NULL,
    title text DEFAULT ''::text NOT NULL,
    url text DEFAULT ''::text NOT NULL,
    seen_at timestamp with time zone NOT NULL
);

--
-- Name: chapter_events_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.chapter_events_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: chapter_events_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.chapter_events_id_seq OWNED BY public.chapter_events.id;

--
-- Name: covers; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.covers (
    site text NOT NULL,
    series_id text NOT NULL,
    source_url text NOT NULL,
    content_type text NOT NULL,
    body bytea NOT NULL,
    fetched_at timestamp with time zone NOT NULL
);

--
-- Name: crosswalk_lookups; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.crosswalk_lookups (
    kind text NOT NULL,
    value text NOT NULL,
    status integer NOT NULL,
    ids jsonb DEFAULT '[]'::jsonb NOT NULL,
    fetched_at timestamp with time zone DEFAULT now() NOT NULL,
    story_status text,
    final_chapter numeric,
    CONSTRAINT crosswalk_lookups_kind_check CHECK ((kind = ANY (ARRAY['al'::text, 'mal'::text, 'mu'::text, 'mu_legacy'::text, 'kt'::text]))),
    CONSTRAINT crosswalk_lookups_story_status_check CHECK ((story_status = ANY (ARRAY['releasing'::text, 'completed'::text, 'hiatus'::text, 'cancelled'::text, 'unknown'::text]))),
    CONSTRAINT crosswalk_lookups_value_check CHECK (((value <> ''::text) AND (length(value) <= 100)))
);

--
-- Name: crosswalk_queue; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.crosswalk_queue (
    id bigint NOT NULL,
    site text NOT NULL,
    series_id text NOT NULL,
    kind text NOT NULL,
    value text NOT NULL,
    source text NOT NULL,
    reader_id bigint,
    queued_at timestamp with time zone DEFAULT now() NOT NULL,
    claimed_until timestamp with time zone,
    tries integer DEFAULT 0 NOT NULL
);

--
-- Name: crosswalk_queue_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.crosswalk_queue_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: crosswalk_queue_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.crosswalk_queue_id_seq OWNED BY public.crosswalk_queue.id;

--
-- Name: goose_db_version; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.goose_db_version (
    id integer NOT NULL,
    version_id bigint NOT NULL,
    is_applied boolean NOT NULL,
    tstamp timestamp without time zone DEFAULT now() NOT NULL
);

--
-- Name: goose_db_version_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.goose_db_version ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME public.goose_db_version_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: import_jobs; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.import_jobs (
    id bigint NOT NULL,
    reader_id bigint NOT NULL,
    kind text NOT NULL,
    state text NOT NULL,
    source text DEFAULT ''::text NOT NULL,
    total integer DEFAULT 0 NOT NULL,
    added integer DEFAULT 0 NOT NULL,
    already integer DEFAULT 0 NOT NULL,
    progress_applied integer DEFAULT 0 NOT NULL,
    waiting integer DEFAULT 0 NOT NULL,
    entries jsonb DEFAULT '[]'::jsonb NOT NULL,
    unsupported jsonb DEFAULT '[]'::jsonb NOT NULL,
    next_at timestamp with time zone,
    due_at timestamp with time zone,
    created_at timestamp with time zone NOT NULL,
    finished_at timestamp with time zone,
    unsupported_dropped integer DEFAULT 0 NOT NULL
);

--
-- Name: import_jobs_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.import_jobs_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: import_jobs_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.import_jobs_id_seq OWNED BY public.import_jobs.id;

--
-- Name: lane_holders; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.lane_holders (
    site text NOT NULL,
    holder text NOT NULL,
    seen_at timestamp with time zone NOT NULL,
    beat_at timestamp with time zone DEFAULT now() NOT NULL,
    pass_started_at timestamp with time zone,
    pass_due integer DEFAULT 0 NOT NULL,
    pass_checked integer DEFAULT 0 NOT NULL
);

--
-- Name: lane_listings; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.lane_listings (
    site text NOT NULL,
    last_at timestamp with time zone,
    last_outcome text DEFAULT ''::text NOT NULL,
    failures integer DEFAULT 0 NOT NULL,
    hinted integer DEFAULT 0 NOT NULL,
    overflows bigint DEFAULT 0 NOT NULL,
    seen text[] DEFAULT '{}'::text[] NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: notice_deliveries; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.notice_deliveries (
    id bigint NOT NULL,
    reader_id bigint NOT NULL,
    outlet text NOT NULL,
    target text DEFAULT ''::text NOT NULL,
    payload jsonb NOT NULL,
    first_seen timestamp with time zone NOT NULL,
    created_at timestamp with time zone NOT NULL,
    next_at timestamp with time zone NOT NULL,
    lease_until timestamp with time zone,
    attempts integer DEFAULT 0 NOT NULL,
    last_error text DEFAULT ''::text NOT NULL,
    sent_at timestamp with time zone,
    dropped_at timestamp with time zone,
    webhook_id text NOT NULL,
    CONSTRAINT notice_deliveries_outlet_check CHECK ((outlet = ANY (ARRAY['discord'::text, 'ntfy'::text, 'webhook'::text, 'push'::text])))
);

--
-- Name: notice_deliveries_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.notice_deliveries_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: notice_deliveries_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.notice_deliveries_id_seq OWNED BY public.notice_deliveries.id;

--
-- Name: notify_outlets; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.notify_outlets (
    reader_id bigint NOT NULL,
    outlet text NOT NULL,
    last_ok_at timestamp with time zone,
    last_error text DEFAULT ''::text NOT NULL,
    failing_since timestamp with time zone,
    dropped integer DEFAULT 0 NOT NULL,
    stopped_at timestamp with time zone,
    CONSTRAINT notify_outlets_outlet_check CHECK ((outlet = ANY (ARRAY['discord'::text, 'ntfy'::text, 'webhook'::text, 'push'::text])))
);

--
-- Name: owner_notices; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.owner_notices (
    kind text NOT NULL,
    site text DEFAULT ''::text NOT NULL,
    opened_at timestamp with time zone NOT NULL,
    notified_at timestamp with time zone,
    CONSTRAINT owner_notices_kind_check CHECK ((kind = ANY (ARRAY['stall'::text, 'no-browser-route'::text, 'sidecar-down'::text, 'adapter-broken'::text])))
);

--
-- Name: phone_sync; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.phone_sync (
    reader_id bigint NOT NULL,
    add_favorites boolean DEFAULT true NOT NULL,
    library_sealed bytea,
    etag text DEFAULT ''::text NOT NULL,
    received_bytes bigint DEFAULT 0 NOT NULL,
    stored_bytes bigint DEFAULT 0 NOT NULL,
    last_upload_at timestamp with time zone,
    last_result jsonb,
    progress_moved bigint DEFAULT 0 NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    read_digests bytea,
    library_digest bytea,
    CONSTRAINT phone_sync_check CHECK (((library_sealed IS NULL) = (etag = ''::text))),
    CONSTRAINT phone_sync_etag_check CHECK ((length(etag) <= 64)),
    CONSTRAINT phone_sync_progress_moved_check CHECK ((progress_moved >= 0)),
    CONSTRAINT phone_sync_received_bytes_check CHECK ((received_bytes >= 0)),
    CONSTRAINT phone_sync_stored_bytes_check CHECK ((stored_bytes >= 0))
);
ALTER TABLE ONLY public.phone_sync ALTER COLUMN library_sealed SET STORAGE EXTERNAL;

--
-- Name: phone_sync_days; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.phone_sync_days (
    reader_id bigint NOT NULL,
    day date NOT NULL,
    uploads integer DEFAULT 0 NOT NULL,
    progress_moved integer DEFAULT 0 NOT NULL
);

--
-- Name: phone_sync_devices; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.phone_sync_devices (
    reader_id bigint NOT NULL,
    device_id text NOT NULL,
    name text DEFAULT ''::text NOT NULL,
    last_sync_at timestamp with time zone NOT NULL,
    CONSTRAINT phone_sync_devices_device_id_check CHECK ((length(device_id) <= 128)),
    CONSTRAINT phone_sync_devices_name_check CHECK ((length(name) <= 128))
);

--
-- Name: poll_failures; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.poll_failures (
    site text NOT NULL,
    series_id text NOT NULL,
    outcome text NOT NULL,
    failing_since timestamp with time zone NOT NULL,
    CONSTRAINT poll_failures_outcome_check CHECK ((outcome = ANY (ARRAY['not_found'::text, 'no_chapter'::text, 'unfetchable'::text, 'errors'::text])))
);

--
-- Name: poll_lanes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.poll_lanes (
    site text NOT NULL,
    paused_until timestamp with time zone,
    pause_reason text DEFAULT ''::text NOT NULL,
    refuse_until timestamp with time zone,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: poll_passes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.poll_passes (
    id bigint NOT NULL,
    site text NOT NULL,
    started_at timestamp with time zone NOT NULL,
    finished_at timestamp with time zone NOT NULL,
    due integer DEFAULT 0 NOT NULL,
    checked integer DEFAULT 0 NOT NULL,
    ok integer DEFAULT 0 NOT NULL,
    new integer DEFAULT 0 NOT NULL,
    not_found integer DEFAULT 0 NOT NULL,
    no_chapter integer DEFAULT 0 NOT NULL,
    unfetchable integer DEFAULT 0 NOT NULL,
    errors integer DEFAULT 0 NOT NULL,
    refused integer DEFAULT 0 NOT NULL,
    unreachable integer DEFAULT 0 NOT NULL,
    skip text DEFAULT ''::text NOT NULL,
    behind_by_ms bigint DEFAULT 0 NOT NULL,
    listing boolean DEFAULT false NOT NULL,
    hinted integer DEFAULT 0 NOT NULL
);

--
-- Name: poll_passes_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.poll_passes_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: poll_passes_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.poll_passes_id_seq OWNED BY public.poll_passes.id;

--
-- Name: progress; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.progress (
    reader_id bigint NOT NULL,
    site text NOT NULL,
    series_id text NOT NULL,
    number numeric NOT NULL,
    url text DEFAULT ''::text NOT NULL,
    read_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    source text DEFAULT 'reader'::text NOT NULL,
    CONSTRAINT progress_source_check CHECK ((source = ANY (ARRAY['reader'::text, 'anilist'::text, 'sync'::text, 'mangabaka'::text])))
);

--
-- Name: push_subscriptions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.push_subscriptions (
    id bigint NOT NULL,
    reader_id bigint NOT NULL,
    endpoint text NOT NULL,
    p256dh text NOT NULL,
    auth text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: push_subscriptions_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.push_subscriptions_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: push_subscriptions_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.push_subscriptions_id_seq OWNED BY public.push_subscriptions.id;

--
-- Name: reader_limits; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.reader_limits (
    reader_id bigint NOT NULL,
    tokens double precision NOT NULL,
    at timestamp with time zone NOT NULL
);

--
-- Name: reader_notices; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.reader_notices (
    reader_id bigint NOT NULL,
    site text NOT NULL,
    series_id text NOT NULL,
    number numeric NOT NULL,
    event_id bigint NOT NULL,
    seen_at timestamp with time zone NOT NULL,
    done_at timestamp with time zone,
    outcome text DEFAULT ''::text NOT NULL,
    work_id bigint,
    work_number numeric,
    held_until timestamp with time zone,
    CONSTRAINT reader_notices_outcome_check CHECK ((outcome = ANY (ARRAY[''::text, 'sent'::text, 'caught_up'::text, 'off'::text])))
);

--
-- Name: reader_notify; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.reader_notify (
    reader_id bigint NOT NULL,
    digest_s integer DEFAULT 900 NOT NULL,
    discord boolean DEFAULT false NOT NULL,
    ntfy_url text DEFAULT ''::text NOT NULL,
    webhook_url text DEFAULT ''::text NOT NULL,
    webhook_secret text DEFAULT ''::text NOT NULL,
    feed_nonce bytea,
    feed_hmac bytea,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT reader_notify_digest_s_check CHECK (((digest_s >= 0) AND (digest_s <= 86400)))
);

--
-- Name: reader_status_notices; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.reader_status_notices (
    reader_id bigint NOT NULL,
    change_id bigint NOT NULL,
    changed_at timestamp with time zone NOT NULL,
    done_at timestamp with time zone
);

--
-- Name: readers; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.readers (
    id bigint NOT NULL,
    discord_id text NOT NULL,
    name text DEFAULT ''::text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    last_login_at timestamp with time zone,
    auto_add_reads boolean DEFAULT true NOT NULL,
    CONSTRAINT readers_discord_id_check CHECK ((discord_id <> ''::text))
);

--
-- Name: readers_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.readers_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: readers_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.readers_id_seq OWNED BY public.readers.id;

--
-- Name: release_feed; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.release_feed (
    id boolean DEFAULT true NOT NULL,
    next_at timestamp with time zone,
    last_read_at timestamp with time zone,
    last_outcome text DEFAULT ''::text NOT NULL,
    last_reason text DEFAULT ''::text NOT NULL,
    failures integer DEFAULT 0 NOT NULL,
    releases integer DEFAULT 0 NOT NULL,
    seen bigint[] DEFAULT '{}'::bigint[] NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT release_feed_id_check CHECK (id),
    CONSTRAINT release_feed_last_reason_check CHECK ((length(last_reason) <= 300))
);

--
-- Name: release_feed_sites; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.release_feed_sites (
    site text NOT NULL,
    hinted integer DEFAULT 0 NOT NULL,
    hinted_at timestamp with time zone,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: series; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.series (
    site text NOT NULL,
    series_id text NOT NULL,
    url text NOT NULL,
    title text DEFAULT ''::text NOT NULL,
    cover_url text DEFAULT ''::text NOT NULL,
    latest_number numeric,
    latest_title text DEFAULT ''::text NOT NULL,
    latest_url text DEFAULT ''::text NOT NULL,
    latest_released_at timestamp with time zone,
    latest_seen_at timestamp with time zone,
    latest_checked_at timestamp with time zone,
    force_poll_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    created_by bigint DEFAULT 0 NOT NULL,
    max_number numeric,
    slow boolean DEFAULT false NOT NULL,
    alt_titles text[] DEFAULT '{}'::text[] NOT NULL,
    status text,
    final_chapter numeric,
    mb_status text,
    mb_final_chapter numeric,
    mb_status_at timestamp with time zone,
    CONSTRAINT series_mb_status_check CHECK ((mb_status = ANY (ARRAY['releasing'::text, 'completed'::text, 'hiatus'::text, 'cancelled'::text, 'unknown'::text]))),
    CONSTRAINT series_series_id_check CHECK ((series_id <> ''::text)),
    CONSTRAINT series_site_check CHECK ((site <> ''::text)),
    CONSTRAINT series_status_check CHECK ((status = ANY (ARRAY['releasing'::text, 'completed'::text, 'hiatus'::text, 'cancelled'::text, 'unknown'::text])))
);

--
-- Name: series_ids; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.series_ids (
    site text NOT NULL,
    series_id text NOT NULL,
    kind text NOT NULL,
    value text NOT NULL,
    source text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    reader_id bigint,
    CONSTRAINT series_ids_kind_check CHECK ((kind = ANY (ARRAY['al'::text, 'mal'::text, 'mu'::text, 'mu_legacy'::text, 'kt'::text, 'md'::text, 'mb'::text]))),
    CONSTRAINT series_ids_source_check CHECK ((source = ANY (ARRAY['site'::text, 'crosswalk'::text, 'reader'::text, 'import'::text, 'sync'::text, 'tracker'::text]))),
    CONSTRAINT series_ids_value_check CHECK (((value <> ''::text) AND (length(value) <= 100))),
    CONSTRAINT series_ids_whose_check CHECK (((source = ANY (ARRAY['site'::text, 'crosswalk'::text])) = (reader_id IS NULL)))
);

--
-- Name: status_changes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.status_changes (
    id bigint NOT NULL,
    work_id bigint,
    site text NOT NULL,
    series_id text NOT NULL,
    status text NOT NULL,
    was text NOT NULL,
    final_chapter numeric,
    changed_at timestamp with time zone NOT NULL
);

--
-- Name: status_changes_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.status_changes_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: status_changes_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.status_changes_id_seq OWNED BY public.status_changes.id;

--
-- Name: sync_v2_items; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sync_v2_items (
    reader_id bigint NOT NULL,
    kind smallint NOT NULL,
    key_hash bytea NOT NULL,
    parent_hash bytea,
    version bigint NOT NULL,
    modified_at bigint NOT NULL,
    deleted boolean DEFAULT false NOT NULL,
    digest bytea NOT NULL,
    origin bytea NOT NULL,
    seq bigint NOT NULL,
    sealed bytea NOT NULL,
    CONSTRAINT sync_v2_items_digest_check CHECK ((length(digest) = 16)),
    CONSTRAINT sync_v2_items_key_hash_check CHECK ((length(key_hash) = 16)),
    CONSTRAINT sync_v2_items_kind_check CHECK (((kind >= 1) AND (kind <= 9))),
    CONSTRAINT sync_v2_items_origin_check CHECK ((length(origin) = 16)),
    CONSTRAINT sync_v2_items_parent_hash_check CHECK ((length(parent_hash) = 16)),
    CONSTRAINT sync_v2_items_seq_check CHECK ((seq > 0))
);

--
-- Name: sync_v2_libraries; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sync_v2_libraries (
    reader_id bigint NOT NULL,
    seq bigint DEFAULT 0 NOT NULL,
    reads_checked_at timestamp with time zone,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    stored_bytes bigint DEFAULT 0 NOT NULL,
    CONSTRAINT sync_v2_libraries_seq_check CHECK ((seq >= 0)),
    CONSTRAINT sync_v2_libraries_stored_bytes_check CHECK ((stored_bytes >= 0))
);

--
-- Name: tokens; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.tokens (
    id bigint NOT NULL,
    reader_id bigint NOT NULL,
    name text DEFAULT ''::text NOT NULL,
    hmac bytea NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    last_used_at timestamp with time zone,
    revoked_at timestamp with time zone,
    scope text DEFAULT 'reader'::text NOT NULL,
    CONSTRAINT tokens_scope_check CHECK ((scope = ANY (ARRAY['reader'::text, 'sync'::text])))
);

--
-- Name: tokens_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.tokens_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: tokens_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.tokens_id_seq OWNED BY public.tokens.id;

--
-- Name: tracker_accounts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.tracker_accounts (
    reader_id bigint NOT NULL,
    service text NOT NULL,
    username text DEFAULT ''::text NOT NULL,
    pull boolean DEFAULT false NOT NULL,
    push boolean DEFAULT false NOT NULL,
    token_sealed bytea,
    state text DEFAULT 'off'::text NOT NULL,
    error text DEFAULT ''::text NOT NULL,
    failures integer DEFAULT 0 NOT NULL,
    last_pull_at timestamp with time zone,
    last_push_at timestamp with time zone,
    next_pull_at timestamp with time zone,
    next_push_at timestamp with time zone,
    push_since timestamp with time zone,
    lease_owner text,
    lease_until timestamp with time zone,
    unmatched jsonb DEFAULT '[]'::jsonb NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    last_pull_moved integer,
    CONSTRAINT tracker_accounts_error_check CHECK ((length(error) <= 300)),
    CONSTRAINT tracker_accounts_service_check CHECK ((service = ANY (ARRAY['anilist'::text, 'mangabaka'::text]))),
    CONSTRAINT tracker_accounts_state_check CHECK ((state = ANY (ARRAY['ok'::text, 'reconnect'::text, 'failing'::text, 'off'::text]))),
    CONSTRAINT tracker_accounts_token_sealed_check CHECK ((length(token_sealed) <= 20000)),
    CONSTRAINT tracker_accounts_unmatched_check CHECK ((jsonb_array_length(unmatched) <= 200)),
    CONSTRAINT tracker_accounts_username_check CHECK ((length(username) <= 64))
);

--
-- Name: tracker_pending; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.tracker_pending (
    reader_id bigint NOT NULL,
    service text NOT NULL,
    media_id text NOT NULL,
    n integer NOT NULL,
    since timestamp with time zone NOT NULL,
    moved_at timestamp with time zone NOT NULL
);

--
-- Name: tracker_remote; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.tracker_remote (
    reader_id bigint NOT NULL,
    service text NOT NULL,
    media_id text NOT NULL,
    progress integer NOT NULL,
    seen_at timestamp with time zone NOT NULL,
    CONSTRAINT tracker_remote_media_id_check CHECK (((media_id <> ''::text) AND (length(media_id) <= 100))),
    CONSTRAINT tracker_remote_progress_check CHECK (((progress >= 0) AND (progress <= 100000)))
);

--
-- Name: vapid_keys; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.vapid_keys (
    id integer NOT NULL,
    public_key text NOT NULL,
    private_key text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT vapid_keys_id_check CHECK ((id = 1))
);

--
-- Name: web_login_links; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.web_login_links (
    code_hash bytea NOT NULL,
    token_id bigint NOT NULL,
    expires_at timestamp with time zone NOT NULL
);

--
-- Name: web_sessions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.web_sessions (
    id_hash bytea NOT NULL,
    token_id bigint NOT NULL,
    created_at timestamp with time zone NOT NULL,
    expires_at timestamp with time zone NOT NULL
);

--
-- Name: work_former_members; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.work_former_members (
    work_id bigint NOT NULL,
    site text NOT NULL,
    series_id text NOT NULL
);

--
-- Name: work_hand_links; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.work_hand_links (
    reader_id bigint NOT NULL,
    work_id bigint NOT NULL,
    site text NOT NULL,
    series_id text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: work_link_refusals; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.work_link_refusals (
    site text NOT NULL,
    series_id text NOT NULL,
    kind text NOT NULL,
    value text DEFAULT ''::text NOT NULL,
    work_id bigint,
    refused_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: work_members; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.work_members (
    site text NOT NULL,
    series_id text NOT NULL,
    work_id bigint NOT NULL,
    linked_by text NOT NULL,
    "offset" numeric DEFAULT 0 NOT NULL,
    drift_since timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    joined_max numeric,
    CONSTRAINT work_members_linked_by_check CHECK ((linked_by = ANY (ARRAY['id:al'::text, 'id:mal'::text, 'id:mu'::text, 'id:mu_legacy'::text, 'id:kt'::text, 'id:md'::text, 'id:mb'::text, 'reader'::text]))),
    CONSTRAINT work_members_offset_check CHECK ((abs("offset") <= (100000)::numeric))
);

--
-- Name: work_offers; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.work_offers (
    reader_id bigint NOT NULL,
    work_id bigint NOT NULL,
    site text NOT NULL,
    series_id text NOT NULL,
    to_site text NOT NULL,
    to_series_id text NOT NULL,
    state text DEFAULT 'made'::text NOT NULL,
    made_at timestamp with time zone NOT NULL,
    told_at timestamp with time zone,
    decided_at timestamp with time zone,
    CONSTRAINT work_offers_state_check CHECK ((state = ANY (ARRAY['made'::text, 'declined'::text, 'accepted'::text])))
);

--
-- Name: work_offset_resets; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.work_offset_resets (
    site text NOT NULL,
    series_id text NOT NULL,
    work_id bigint NOT NULL,
    "offset" numeric NOT NULL,
    reset_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: work_prefs; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.work_prefs (
    reader_id bigint NOT NULL,
    work_id bigint NOT NULL,
    site text NOT NULL,
    hold_minutes integer DEFAULT 60 NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT work_prefs_hold_minutes_check CHECK (((hold_minutes >= 1) AND (hold_minutes <= 1440)))
);

--
-- Name: work_reader_offsets; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.work_reader_offsets (
    reader_id bigint NOT NULL,
    work_id bigint NOT NULL,
    site text NOT NULL,
    series_id text NOT NULL,
    "offset" numeric NOT NULL,
    set_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT work_reader_offsets_offset_check CHECK ((abs("offset") <= (100000)::numeric))
);

--
-- Name: work_reader_unlinks; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.work_reader_unlinks (
    reader_id bigint NOT NULL,
    work_id bigint NOT NULL,
    site text NOT NULL,
    series_id text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: work_unlinks; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.work_unlinks (
    work_id bigint NOT NULL,
    site text NOT NULL,
    series_id text NOT NULL,
    reader_id bigint,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: works; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.works (
    id bigint NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    status text,
    CONSTRAINT works_status_check CHECK ((status = ANY (ARRAY['releasing'::text, 'completed'::text, 'hiatus'::text, 'cancelled'::text, 'unknown'::text])))
);

--
-- Name: works_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.works_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: works_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.works_id_seq OWNED BY public.works.id;

--
-- Name: chapter_events id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.chapter_events ALTER COLUMN id SET DEFAULT nextval('public.chapter_events_id_seq'::regclass);

--
-- Name: crosswalk_queue id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.crosswalk_queue ALTER COLUMN id SET DEFAULT nextval('public.crosswalk_queue_id_seq'::regclass);

--
-- Name: import_jobs id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.import_jobs ALTER COLUMN id SET DEFAULT nextval('public.import_jobs_id_seq'::regclass);

--
-- Name: notice_deliveries id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.notice_deliveries ALTER COLUMN id SET DEFAULT nextval('public.notice_deliveries_id_seq'::regclass);

--
-- Name: poll_passes id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.poll_passes ALTER COLUMN id SET DEFAULT nextval('public.poll_passes_id_seq'::regclass);

--
-- Name: push_subscriptions id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.push_subscriptions ALTER COLUMN id SET DEFAULT nextval('public.push_subscriptions_id_seq'::regclass);

--
-- Name: readers id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.readers ALTER COLUMN id SET DEFAULT nextval('public.readers_id_seq'::regclass);

--
-- Name: status_changes id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.status_changes ALTER COLUMN id SET DEFAULT nextval('public.status_changes_id_seq'::regclass);

--
-- Name: tokens id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tokens ALTER COLUMN id SET DEFAULT nextval('public.tokens_id_seq'::regclass);

--
-- Name: works id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.works ALTER COLUMN id SET DEFAULT nextval('public.works_id_seq'::regclass);

--
-- Name: bookmark_undo_items bookmark_undo_items_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.bookmark_undo_items
    ADD CONSTRAINT bookmark_undo_items_pkey PRIMARY KEY (reader_id, site, series_id);

--
-- Name: bookmark_undo bookmark_undo_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.bookmark_undo
    ADD CONSTRAINT bookmark_undo_pkey PRIMARY KEY (reader_id);

--
-- Name: bookmarks bookmarks_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.bookmarks
    ADD CONSTRAINT bookmarks_pkey PRIMARY KEY (reader_id, site, series_id);

--
-- Name: chapter_events chapter_events_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.chapter_events
    ADD CONSTRAINT chapter_events_pkey PRIMARY KEY (id);

--
-- Name: chapter_events chapter_events_site_series_id_number_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.chapter_events
    ADD CONSTRAINT chapter_events_site_series_id_number_key UNIQUE (site, series_id, number);

--
-- Name: covers covers_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.covers
    ADD CONSTRAINT covers_pkey PRIMARY KEY (site, series_id);

--
-- Name: crosswalk_lookups crosswalk_lookups_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.crosswalk_lookups
    ADD CONSTRAINT crosswalk_lookups_pkey PRIMARY KEY (kind, value);

--
-- Name: crosswalk_queue crosswalk_queue_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.crosswalk_queue
    ADD CONSTRAINT crosswalk_queue_pkey PRIMARY KEY (id);

--
-- Name: crosswalk_queue crosswalk_queue_site_series_id_kind_value_source_reader_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.crosswalk_queue
    ADD CONSTRAINT crosswalk_queue_site_series_id_kind_value_source_reader_id_key UNIQUE NULLS NOT DISTINCT (site, series_id, kind, value, source, reader_id);

--
-- Name: goose_db_version goose_db_version_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.goose_db_version
    ADD CONSTRAINT goose_db_version_pkey PRIMARY KEY (id);

--
-- Name: import_jobs import_jobs_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.import_jobs
    ADD CONSTRAINT import_jobs_pkey PRIMARY KEY (id);

--
-- Name: lane_holders lane_holders_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.lane_holders
    ADD CONSTRAINT lane_holders_pkey PRIMARY KEY (site);

--
-- Name: lane_listings lane_listings_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.lane_listings
    ADD CONSTRAINT lane_listings_pkey PRIMARY KEY (site);

--
-- Name: notice_deliveries notice_deliveries_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.notice_deliveries
    ADD CONSTRAINT notice_deliveries_pkey PRIMARY KEY (id);

--
-- Name: notify_outlets notify_outlets_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.notify_outlets
    ADD CONSTRAINT notify_outlets_pkey PRIMARY KEY (reader_id, outlet);

--
-- Name: owner_notices owner_notices_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.owner_notices
    ADD CONSTRAINT owner_notices_pkey PRIMARY KEY (kind, site);

--
-- Name: phone_sync_days phone_sync_days_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.phone_sync_days
    ADD CONSTRAINT phone_sync_days_pkey PRIMARY KEY (day, reader_id);

--
-- Name: phone_sync_devices phone_sync_devices_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.phone_sync_devices
    ADD CONSTRAINT phone_sync_devices_pkey PRIMARY KEY (reader_id, device_id);

--
-- Name: phone_sync phone_sync_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.phone_sync
    ADD CONSTRAINT phone_sync_pkey PRIMARY KEY (reader_id);

--
-- Name: poll_failures poll_failures_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.poll_failures
    ADD CONSTRAINT poll_failures_pkey PRIMARY KEY (site, series_id);

--
-- Name: poll_lanes poll_lanes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.poll_lanes
    ADD CONSTRAINT poll_lanes_pkey PRIMARY KEY (site);

--
-- Name: poll_passes poll_passes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.poll_passes
    ADD CONSTRAINT poll_passes_pkey PRIMARY KEY (id);

--
-- Name: progress progress_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.progress
    ADD CONSTRAINT progress_pkey PRIMARY KEY (reader_id, site, series_id);

--
-- Name: push_subscriptions push_subscriptions_endpoint_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.push_subscriptions
    ADD CONSTRAINT push_subscriptions_endpoint_key UNIQUE (endpoint);

--
-- Name: push_subscriptions push_subscriptions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.push_subscriptions
    ADD CONSTRAINT push_subscriptions_pkey PRIMARY KEY (id);

--
-- Name: reader_limits reader_limits_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.reader_limits
    ADD CONSTRAINT reader_limits_pkey PRIMARY KEY (reader_id);

--
-- Name: reader_notices reader_notices_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.reader_notices
    ADD CONSTRAINT reader_notices_pkey PRIMARY KEY (reader_id, site, series_id, number);

--
-- Name: reader_notify reader_notify_feed_hmac_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.reader_notify
    ADD CONSTRAINT reader_notify_feed_hmac_key UNIQUE (feed_hmac);

--
-- Name: reader_notify reader_notify_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.reader_notify
    ADD CONSTRAINT reader_notify_pkey PRIMARY KEY (reader_id);

--
-- Name: reader_status_notices reader_status_notices_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.reader_status_notices
    ADD CONSTRAINT reader_status_notices_pkey PRIMARY KEY (reader_id, change_id);

--
-- Name: readers readers_discord_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.readers
    ADD CONSTRAINT readers_discord_id_key UNIQUE (discord_id);

--
-- Name: readers readers_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.readers
    ADD CONSTRAINT readers_pkey PRIMARY KEY (id);

--
-- Name: release_feed release_feed_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.release_feed
    ADD CONSTRAINT release_feed_pkey PRIMARY KEY (id);

--
-- Name: release_feed_sites release_feed_sites_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.release_feed_sites
    ADD CONSTRAINT release_feed_sites_pkey PRIMARY KEY (site);

--
-- Name: series_ids series_ids_one_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.series_ids
    ADD CONSTRAINT series_ids_one_key UNIQUE NULLS NOT DISTINCT (site, series_id, kind, source, reader_id);

--
-- Name: series series_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.series
    ADD CONSTRAINT series_pkey PRIMARY KEY (site, series_id);

--
-- Name: status_changes status_changes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.status_changes
    ADD CONSTRAINT status_changes_pkey PRIMARY KEY (id);

--
-- Name: sync_v2_items sync_v2_items_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sync_v2_items
    ADD CONSTRAINT sync_v2_items_pkey PRIMARY KEY (reader_id, kind, key_hash);

--
-- Name: sync_v2_libraries sync_v2_libraries_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sync_v2_libraries
    ADD CONSTRAINT sync_v2_libraries_pkey PRIMARY KEY (reader_id);

--
-- Name: tokens tokens_hmac_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tokens
    ADD CONSTRAINT tokens_hmac_key UNIQUE (hmac);

--
-- Name: tokens tokens_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tokens
    ADD CONSTRAINT tokens_pkey PRIMARY KEY (id);

--
-- Name: tracker_accounts tracker_accounts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tracker_accounts
    ADD CONSTRAINT tracker_accounts_pkey PRIMARY KEY (reader_id, service);

--
-- Name: tracker_pending tracker_pending_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tracker_pending
    ADD CONSTRAINT tracker_pending_pkey PRIMARY KEY (reader_id, service, media_id);

--
-- Name: tracker_remote tracker_remote_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tracker_remote
    ADD CONSTRAINT tracker_remote_pkey PRIMARY KEY (reader_id, service, media_id);

--
-- Name: vapid_keys vapid_keys_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.vapid_keys
    ADD CONSTRAINT vapid_keys_pkey PRIMARY KEY (id);

--
-- Name: web_login_links web_login_links_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.web_login_links
    ADD CONSTRAINT web_login_links_pkey PRIMARY KEY (code_hash);

--
-- Name: web_sessions web_sessions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.web_sessions
    ADD CONSTRAINT web_sessions_pkey PRIMARY KEY (id_hash);

--
-- Name: work_former_members work_former_members_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.work_former_members
    ADD CONSTRAINT work_former_members_pkey PRIMARY KEY (site, series_id, work_id);

--
-- Name: work_hand_links work_hand_links_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.work_hand_links
    ADD CONSTRAINT work_hand_links_pkey PRIMARY KEY (reader_id, site, series_id);

--
-- Name: work_link_refusals work_link_refusals_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.work_link_refusals
    ADD CONSTRAINT work_link_refusals_pkey PRIMARY KEY (site, series_id, kind, value);

--
-- Name: work_members work_members_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.work_members
    ADD CONSTRAINT work_members_pkey PRIMARY KEY (site, series_id);

--
-- Name: work_offers work_offers_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.work_offers
    ADD CONSTRAINT work_offers_pkey PRIMARY KEY (reader_id, work_id);

--
-- Name: work_offset_resets work_offset_resets_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.work_offset_resets
    ADD CONSTRAINT work_offset_resets_pkey PRIMARY KEY (site, series_id);

--
-- Name: work_prefs work_prefs_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.work_prefs
    ADD CONSTRAINT work_prefs_pkey PRIMARY KEY (reader_id, work_id);

--
-- Name: work_reader_offsets work_reader_offsets_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.work_reader_offsets
    ADD CONSTRAINT work_reader_offsets_pkey PRIMARY KEY (reader_id, site, series_id);

--
-- Name: work_reader_unlinks work_reader_unlinks_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.work_reader_unlinks
    ADD CONSTRAINT work_reader_unlinks_pkey PRIMARY KEY (reader_id, work_id, site, series_id);

--
-- Name: work_unlinks work_unlinks_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.work_unlinks
    ADD CONSTRAINT work_unlinks_pkey PRIMARY KEY (work_id, site, series_id);

--
-- Name: works works_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.works
    ADD CONSTRAINT works_pkey PRIMARY KEY (id);

--
-- Name: bookmark_undo_expires_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX bookmark_undo_expires_idx ON public.bookmark_undo USING btree (expires_at);

--
-- Name: bookmark_undo_items_series_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX bookmark_undo_items_series_idx ON public.bookmark_undo_items USING btree (site, series_id);

--
-- Name: bookmarks_series_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX bookmarks_series_idx ON public.bookmarks USING btree (site, series_id);

--
-- Name: chapter_events_seen_id_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX chapter_events_seen_id_idx ON public.chapter_events USING btree (seen_at, id);

--
-- Name: chapter_events_series_seen_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX chapter_events_series_seen_idx ON public.chapter_events USING btree (site, series_id, seen_at DESC);

--
-- Name: import_jobs_due_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX import_jobs_due_idx ON public.import_jobs USING btree (due_at) WHERE (state = ANY (ARRAY['running'::text, 'waiting'::text]));

--
-- Name: import_jobs_reader_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX import_jobs_reader_idx ON public.import_jobs USING btree (reader_id, id DESC);

--
-- Name: notice_deliveries_due_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX notice_deliveries_due_idx ON public.notice_deliveries USING btree (next_at) WHERE ((sent_at IS NULL) AND (dropped_at IS NULL));

--
-- Name: notice_deliveries_reader_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX notice_deliveries_reader_idx ON public.notice_deliveries USING btree (reader_id, created_at DESC);

--
-- Name: poll_failures_since_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX poll_failures_since_idx ON public.poll_failures USING btree (failing_since, site, series_id);

--
-- Name: poll_failures_site_outcome_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX poll_failures_site_outcome_idx ON public.poll_failures USING btree (site, outcome, failing_since, series_id);

--
-- Name: poll_failures_site_since_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX poll_failures_site_since_idx ON public.poll_failures USING btree (site, failing_since, series_id);

--
-- Name: poll_passes_site_started_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX poll_passes_site_started_idx ON public.poll_passes USING btree (site, started_at DESC);

--
-- Name: poll_passes_started_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX poll_passes_started_idx ON public.poll_passes USING btree (started_at);

--
-- Name: push_subscriptions_reader_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX push_subscriptions_reader_idx ON public.push_subscriptions USING btree (reader_id);

--
-- Name: reader_notices_done_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX reader_notices_done_idx ON public.reader_notices USING btree (done_at) WHERE (done_at IS NOT NULL);

--
-- Name: reader_notices_event_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX reader_notices_event_idx ON public.reader_notices USING btree (event_id);

--
-- Name: reader_notices_owed_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX reader_notices_owed_idx ON public.reader_notices USING btree (reader_id, seen_at) WHERE (done_at IS NULL);

--
-- Name: reader_notices_work_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX reader_notices_work_idx ON public.reader_notices USING btree (reader_id, work_id, work_number) WHERE (work_id IS NOT NULL);

--
-- Name: reader_status_notices_owed_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX reader_status_notices_owed_idx ON public.reader_status_notices USING btree (reader_id) WHERE (done_at IS NULL);

--
-- Name: series_due_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX series_due_idx ON public.series USING btree (site, latest_checked_at NULLS FIRST);

--
-- Name: series_forced_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX series_forced_idx ON public.series USING btree (site, force_poll_at) WHERE (force_poll_at IS NOT NULL);

--
-- Name: series_ids_reader_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX series_ids_reader_idx ON public.series_ids USING btree (reader_id, site, series_id) WHERE (reader_id IS NOT NULL);

--
-- Name: series_ids_value_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX series_ids_value_idx ON public.series_ids USING btree (kind, value);

--
-- Name: series_mb_status_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX series_mb_status_idx ON public.series USING btree (site, series_id) WHERE (mb_status IS NOT NULL);

--
-- Name: series_slow_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX series_slow_idx ON public.series USING btree (site, latest_checked_at) WHERE slow;

--
-- Name: series_titles_trgm_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX series_titles_trgm_idx ON public.series USING gin (public.series_titles(title, alt_titles) public.gin_trgm_ops);

--
-- Name: series_unchecked_by_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX series_unchecked_by_idx ON public.series USING btree (site, created_by, created_at, series_id) WHERE ((latest_checked_at IS NULL) AND (force_poll_at IS NULL));

--
-- Name: series_unchecked_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX series_unchecked_idx ON public.series USING btree (site, created_at) WHERE (latest_checked_at IS NULL);

--
-- Name: sync_v2_items_parent_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sync_v2_items_parent_idx ON public.sync_v2_items USING btree (reader_id, parent_hash) WHERE (parent_hash IS NOT NULL);

--
-- Name: sync_v2_items_seq_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sync_v2_items_seq_idx ON public.sync_v2_items USING btree (reader_id, seq);

--
-- Name: tokens_one_sync_key_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX tokens_one_sync_key_idx ON public.tokens USING btree (reader_id) WHERE ((scope = 'sync'::text) AND (revoked_at IS NULL));

--
-- Name: tokens_reader_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX tokens_reader_idx ON public.tokens USING btree (reader_id);

--
-- Name: tracker_accounts_pull_due_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX tracker_accounts_pull_due_idx ON public.tracker_accounts USING btree (service, next_pull_at) WHERE pull;

--
-- Name: tracker_pending_since_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX tracker_pending_since_idx ON public.tracker_pending USING btree (service, since);

--
-- Name: web_sessions_expires_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX web_sessions_expires_idx ON public.web_sessions USING btree (expires_at);

--
-- Name: web_sessions_token_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX web_sessions_token_idx ON public.web_sessions USING btree (token_id);

--
-- Name: work_former_members_work_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX work_former_members_work_idx ON public.work_former_members USING btree (work_id);

--
-- Name: work_hand_links_series_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX work_hand_links_series_idx ON public.work_hand_links USING btree (site, series_id);

--
-- Name: work_hand_links_work_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX work_hand_links_work_idx ON public.work_hand_links USING btree (work_id, site, series_id);

--
-- Name: work_link_refusals_work_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX work_link_refusals_work_idx ON public.work_link_refusals USING btree (work_id);

--
-- Name: work_members_one_site_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX work_members_one_site_idx ON public.work_members USING btree (work_id, site);

--
-- Name: work_members_work_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX work_members_work_idx ON public.work_members USING btree (work_id);

--
-- Name: work_reader_offsets_member_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX work_reader_offsets_member_idx ON public.work_reader_offsets USING btree (site, series_id);

--
-- Name: work_reader_unlinks_member_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX work_reader_unlinks_member_idx ON public.work_reader_unlinks USING btree (work_id, site, series_id);

--
-- Name: work_unlinks_series_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX work_unlinks_series_idx ON public.work_unlinks USING btree (site, series_id);

--
-- Name: bookmarks bookmarks_drop_notices; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER bookmarks_drop_notices AFTER DELETE ON public.bookmarks REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION public.reader_notices_unbookmarked();

--
-- Name: series series_wake_added; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER series_wake_added AFTER INSERT ON public.series REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION public.lane_wake_added();

--
-- Name: series series_wake_sooner; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER series_wake_sooner AFTER UPDATE OF latest_checked_at, force_poll_at ON public.series FOR EACH ROW WHEN ((((new.latest_checked_at IS NULL) AND (old.latest_checked_at IS NOT NULL)) OR (new.latest_checked_at < old.latest_checked_at) OR ((new.force_poll_at IS NOT NULL) AND (new.force_poll_at IS DISTINCT FROM old.force_poll_at)))) EXECUTE FUNCTION public.lane_wake_sooner();

--
-- Name: work_hand_links work_hand_links_thin_del; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER work_hand_links_thin_del AFTER DELETE ON public.work_hand_links REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION public.work_members_thin();

--
-- Name: work_members work_member_start_ins; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER work_member_start_ins BEFORE INSERT ON public.work_members FOR EACH ROW EXECUTE FUNCTION public.work_member_start();

--
-- Name: work_members work_member_start_upd; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER work_member_start_upd BEFORE UPDATE OF work_id ON public.work_members FOR EACH ROW WHEN ((old.work_id IS DISTINCT FROM new.work_id)) EXECUTE FUNCTION public.work_member_start();

--
-- Name: work_members work_members_joined_ins; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER work_members_joined_ins AFTER INSERT ON public.work_members REFERENCING NEW TABLE AS joined FOR EACH STATEMENT EXECUTE FUNCTION public.work_members_joined();

--
-- Name: work_members work_members_moved_upd; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER work_members_moved_upd AFTER UPDATE ON public.work_members REFERENCING OLD TABLE AS gone NEW TABLE AS moved FOR EACH STATEMENT EXECUTE FUNCTION public.work_members_moved();

--
-- Name: work_members work_members_thin_del; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER work_members_thin_del AFTER DELETE ON public.work_members REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION public.work_members_thin();

--
-- Name: bookmark_undo_items bookmark_undo_items_reader_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.bookmark_undo_items
    ADD CONSTRAINT bookmark_undo_items_reader_id_fkey FOREIGN KEY (reader_id) REFERENCES public.bookmark_undo(reader_id) ON DELETE CASCADE;

--
-- Name: bookmark_undo_items bookmark_undo_items_site_series_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.bookmark_undo_items
    ADD CONSTRAINT bookmark_undo_items_site_series_id_fkey FOREIGN KEY (site, series_id) REFERENCES public.series(site, series_id) ON DELETE CASCADE;

--
-- Name: bookmark_undo bookmark_undo_reader_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.bookmark_undo
    ADD CONSTRAINT bookmark_undo_reader_id_fkey FOREIGN KEY (reader_id) REFERENCES public.readers(id) ON DELETE CASCADE;

--
-- Name: bookmarks bookmarks_reader_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.bookmarks
    ADD CONSTRAINT bookmarks_reader_id_fkey FOREIGN KEY (reader_id) REFERENCES public.readers(id) ON DELETE CASCADE;

--
-- Name: bookmarks bookmarks_site_series_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.bookmarks
    ADD CONSTRAINT bookmarks_site_series_id_fkey FOREIGN KEY (site, series_id) REFERENCES public.series(site, series_id) ON DELETE CASCADE;

--
-- Name: chapter_events chapter_events_site_series_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.chapter_events
    ADD CONSTRAINT chapter_events_site_series_id_fkey FOREIGN KEY (site, series_id) REFERENCES public.series(site, series_id) ON DELETE CASCADE;

--
-- Name: covers covers_site_series_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.covers
    ADD CONSTRAINT covers_site_series_id_fkey FOREIGN KEY (site, series_id) REFERENCES public.series(site, series_id) ON DELETE CASCADE;

--
-- Name: crosswalk_queue crosswalk_queue_reader_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.crosswalk_queue
    ADD CONSTRAINT crosswalk_queue_reader_id_fkey FOREIGN KEY (reader_id) REFERENCES public.readers(id) ON DELETE CASCADE;

--
-- Name: crosswalk_queue crosswalk_queue_site_series_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.crosswalk_queue
    ADD CONSTRAINT crosswalk_queue_site_series_id_fkey FOREIGN KEY (site, series_id) REFERENCES public.series(site, series_id) ON DELETE CASCADE;

--
-- Name: import_jobs import_jobs_reader_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.import_jobs
    ADD CONSTRAINT import_jobs_reader_id_fkey FOREIGN KEY (reader_id) REFERENCES public.readers(id) ON DELETE CASCADE;

--
-- Name: notice_deliveries notice_deliveries_reader_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.notice_deliveries
    ADD CONSTRAINT notice_deliveries_reader_id_fkey FOREIGN KEY (reader_id) REFERENCES public.readers(id) ON DELETE CASCADE;

--
-- Name: notify_outlets notify_outlets_reader_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.notify_outlets
    ADD CONSTRAINT notify_outlets_reader_id_fkey FOREIGN KEY (reader_id) REFERENCES public.readers(id) ON DELETE CASCADE;

--
-- Name: phone_sync_days phone_sync_days_reader_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.phone_sync_days
    ADD CONSTRAINT phone_sync_days_reader_id_fkey FOREIGN KEY (reader_id) REFERENCES public.readers(id) ON DELETE CASCADE;

--
-- Name: phone_sync_devices phone_sync_devices_reader_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.phone_sync_devices
    ADD CONSTRAINT phone_sync_devices_reader_id_fkey FOREIGN KEY (reader_id) REFERENCES public.phone_sync(reader_id) ON DELETE CASCADE;

--
-- Name: phone_sync phone_sync_reader_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.phone_sync
    ADD CONSTRAINT phone_sync_reader_id_fkey FOREIGN KEY (reader_id) REFERENCES public.readers(id) ON DELETE CASCADE;

--
-- Name: poll_failures poll_failures_site_series_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.poll_failures
    ADD CONSTRAINT poll_failures_site_series_id_fkey FOREIGN KEY (site, series_id) REFERENCES public.series(site, series_id) ON DELETE CASCADE;

--
-- Name: progress progress_reader_id_site_series_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.progress
    ADD CONSTRAINT progress_reader_id_site_series_id_fkey FOREIGN KEY (reader_id, site, series_id) REFERENCES public.bookmarks(reader_id, site, series_id) ON DELETE CASCADE;

--
-- Name: push_subscriptions push_subscriptions_reader_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.push_subscriptions
    ADD CONSTRAINT push_subscriptions_reader_id_fkey FOREIGN KEY (reader_id) REFERENCES public.readers(id) ON DELETE CASCADE;

--
-- Name: reader_limits reader_limits_reader_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.reader_limits
    ADD CONSTRAINT reader_limits_reader_id_fkey FOREIGN KEY (reader_id) REFERENCES public.readers(id) ON DELETE CASCADE;

--
-- Name: reader_notify reader_notify_reader_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.reader_notify
    ADD CONSTRAINT reader_notify_reader_id_fkey FOREIGN KEY (reader_id) REFERENCES public.readers(id) ON DELETE CASCADE;

--
-- Name: reader_status_notices reader_status_notices_change_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.reader_status_notices
    ADD CONSTRAINT reader_status_notices_change_id_fkey FOREIGN KEY (change_id) REFERENCES public.status_changes(id) ON DELETE CASCADE;

--
-- Name: reader_status_notices reader_status_notices_reader_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.reader_status_notices
    ADD CONSTRAINT reader_status_notices_reader_id_fkey FOREIGN KEY (reader_id) REFERENCES public.readers(id) ON DELETE CASCADE;

--
-- Name: series_ids series_ids_reader_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.series_ids
    ADD CONSTRAINT series_ids_reader_id_fkey FOREIGN KEY (reader_id) REFERENCES public.readers(id) ON DELETE CASCADE;

--
-- Name: series_ids series_ids_site_series_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.series_ids
    ADD CONSTRAINT series_ids_site_series_id_fkey FOREIGN KEY (site, series_id) REFERENCES public.series(site, series_id) ON DELETE CASCADE;

--
-- Name: status_changes status_changes_site_series_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.status_changes
    ADD CONSTRAINT status_changes_site_series_id_fkey FOREIGN KEY (site, series_id) REFERENCES public.series(site, series_id) ON DELETE CASCADE;

--
-- Name: status_changes status_changes_work_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.status_changes
    ADD CONSTRAINT status_changes_work_id_fkey FOREIGN KEY (work_id) REFERENCES public.works(id) ON DELETE CASCADE;

--
-- Name: sync_v2_items sync_v2_items_reader_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sync_v2_items
    ADD CONSTRAINT sync_v2_items_reader_id_fkey FOREIGN KEY (reader_id) REFERENCES public.sync_v2_libraries(reader_id) ON DELETE CASCADE;

--
-- Name: sync_v2_libraries sync_v2_libraries_reader_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sync_v2_libraries
    ADD CONSTRAINT sync_v2_libraries_reader_id_fkey FOREIGN KEY (reader_id) REFERENCES public.readers(id) ON DELETE CASCADE;

--
-- Name: tokens tokens_reader_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tokens
    ADD CONSTRAINT tokens_reader_id_fkey FOREIGN KEY (reader_id) REFERENCES public.readers(id) ON DELETE CASCADE;

--
-- Name: tracker_accounts tracker_accounts_reader_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tracker_accounts
    ADD CONSTRAINT tracker_accounts_reader_id_fkey FOREIGN KEY (reader_id) REFERENCES public.readers(id) ON DELETE CASCADE;

--
-- Name: tracker_pending tracker_pending_reader_id_service_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tracker_pending
    ADD CONSTRAINT tracker_pending_reader_id_service_fkey FOREIGN KEY (reader_id, service) REFERENCES public.tracker_accounts(reader_id, service) ON DELETE CASCADE;

--
-- Name: tracker_remote tracker_remote_reader_id_service_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tracker_remote
    ADD CONSTRAINT tracker_remote_reader_id_service_fkey FOREIGN KEY (reader_id, service) REFERENCES public.tracker_accounts(reader_id, service) ON DELETE CASCADE;

--
-- Name: web_login_links web_login_links_token_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.web_login_links
    ADD CONSTRAINT web_login_links_token_id_fkey FOREIGN KEY (token_id) REFERENCES public.tokens(id) ON DELETE CASCADE;

--
-- Name: web_sessions web_sessions_token_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.web_sessions
    ADD CONSTRAINT web_sessions_token_id_fkey FOREIGN KEY (token_id) REFERENCES public.tokens(id) ON DELETE CASCADE;

--
-- Name: work_former_members work_former_members_site_series_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.work_former_members
    ADD CONSTRAINT work_former_members_site_series_id_fkey FOREIGN KEY (site, series_id) REFERENCES public.series(site, series_id) ON DELETE CASCADE;

--
-- Name: work_former_members work_former_members_work_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.work_former_members
    ADD CONSTRAINT work_former_members_work_id_fkey FOREIGN KEY (work_id) REFERENCES public.works(id) ON DELETE CASCADE;

--
-- Name: work_hand_links work_hand_links_reader_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.work_hand_links
    ADD CONSTRAINT work_hand_links_reader_id_fkey FOREIGN KEY (reader_id) REFERENCES public.readers(id) ON DELETE CASCADE;

--
-- Name: work_hand_links work_hand_links_site_series_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.work_hand_links
    ADD CONSTRAINT work_hand_links_site_series_id_fkey FOREIGN KEY (site, series_id) REFERENCES public.series(site, series_id) ON DELETE CASCADE;

--
-- Name: work_hand_links work_hand_links_work_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.work_hand_links
    ADD CONSTRAINT work_hand_links_work_id_fkey FOREIGN KEY (work_id) REFERENCES public.works(id) ON DELETE CASCADE;

--
-- Name: work_link_refusals work_link_refusals_site_series_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.work_link_refusals
    ADD CONSTRAINT work_link_refusals_site_series_id_fkey FOREIGN KEY (site, series_id) REFERENCES public.series(site, series_id) ON DELETE CASCADE;

--
-- Name: work_link_refusals work_link_refusals_work_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.work_link_refusals
    ADD CONSTRAINT work_link_refusals_work_id_fkey FOREIGN KEY (work_id) REFERENCES public.works(id) ON DELETE SET NULL;

--
-- Name: work_members work_members_site_series_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.work_members
    ADD CONSTRAINT work_members_site_series_id_fkey FOREIGN KEY (site, series_id) REFERENCES public.series(site, series_id) ON DELETE CASCADE;

--
-- Name: work_members work_members_work_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.work_members
    ADD CONSTRAINT work_members_work_id_fkey FOREIGN KEY (work_id) REFERENCES public.works(id) ON DELETE CASCADE;

--
-- Name: work_offers work_offers_reader_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.work_offers
    ADD CONSTRAINT work_offers_reader_id_fkey FOREIGN KEY (reader_id) REFERENCES public.readers(id) ON DELETE CASCADE;

--
-- Name: work_offers work_offers_work_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.work_offers
    ADD CONSTRAINT work_offers_work_id_fkey FOREIGN KEY (work_id) REFERENCES public.works(id) ON DELETE CASCADE;

--
-- Name: work_offset_resets work_offset_resets_site_series_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.work_offset_resets
    ADD CONSTRAINT work_offset_resets_site_series_id_fkey FOREIGN KEY (site, series_id) REFERENCES public.work_members(site, series_id) ON DELETE CASCADE;

--
-- Name: work_offset_resets work_offset_resets_work_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.work_offset_resets
    ADD CONSTRAINT work_offset_resets_work_id_fkey FOREIGN KEY (work_id) REFERENCES public.works(id) ON DELETE CASCADE;

--
-- Name: work_prefs work_prefs_reader_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.work_prefs
    ADD CONSTRAINT work_prefs_reader_id_fkey FOREIGN KEY (reader_id) REFERENCES public.readers(id) ON DELETE CASCADE;

--
-- Name: work_prefs work_prefs_work_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.work_prefs
    ADD CONSTRAINT work_prefs_work_id_fkey FOREIGN KEY (work_id) REFERENCES public.works(id) ON DELETE CASCADE;

--
-- Name: work_reader_offsets work_reader_offsets_reader_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.work_reader_offsets
    ADD CONSTRAINT work_reader_offsets_reader_id_fkey FOREIGN KEY (reader_id) REFERENCES public.readers(id) ON DELETE CASCADE;

--
-- Name: work_reader_offsets work_reader_offsets_site_series_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.work_reader_offsets
    ADD CONSTRAINT work_reader_offsets_site_series_id_fkey FOREIGN KEY (site, series_id) REFERENCES public.work_members(site, series_id) ON DELETE CASCADE;

--
-- Name: work_reader_offsets work_reader_offsets_work_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.work_reader_offsets
    ADD CONSTRAINT work_reader_offsets_work_id_fkey FOREIGN KEY (work_id) REFERENCES public.works(id) ON DELETE CASCADE;

--
-- Name: work_reader_unlinks work_reader_unlinks_reader_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.work_reader_unlinks
    ADD CONSTRAINT work_reader_unlinks_reader_id_fkey FOREIGN KEY (reader_id) REFERENCES public.readers(id) ON DELETE CASCADE;

--
-- Name: work_reader_unlinks work_reader_unlinks_site_series_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.work_reader_unlinks
    ADD CONSTRAINT work_reader_unlinks_site_series_id_fkey FOREIGN KEY (site, series_id) REFERENCES public.series(site, series_id) ON DELETE CASCADE;

--
-- Name: work_reader_unlinks work_reader_unlinks_work_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.work_reader_unlinks
    ADD CONSTRAINT work_reader_unlinks_work_id_fkey FOREIGN KEY (work_id) REFERENCES public.works(id) ON DELETE CASCADE;

--
-- Name: work_unlinks work_unlinks_work_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.work_unlinks
    ADD CONSTRAINT work_unlinks_work_id_fkey FOREIGN KEY (work_id) REFERENCES public.works(id) ON DELETE CASCADE;
