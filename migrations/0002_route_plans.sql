-- 0002: saved route plans. The structure of a plan (nodes, segments, locks, pinned
-- departure, pending updates) is in real tables; a leg's geometry and transit rides, and the
-- two legs of a pending update, are compact binary blobs (format: docs/storage.md, "Leg
-- blobs"), because they are only ever read whole.

-- One saved plan. from_name, to_name and total_travel_time repeat facts of the nodes and
-- legs so that listing a thousand plans reads one table; the store rewrites them with the plan.
CREATE TABLE plan (
    id                   INTEGER PRIMARY KEY,
    title                TEXT NOT NULL,
    -- 'leave_now', 'depart_at' or 'arrive_by'; time_preference_at is set for the last two.
    time_preference      TEXT NOT NULL CHECK (time_preference IN ('leave_now', 'depart_at', 'arrive_by')),
    time_preference_at   REAL,
    pace                 TEXT NOT NULL,     -- WalkingPace raw value
    from_name            TEXT NOT NULL,
    to_name              TEXT NOT NULL,
    total_travel_time    REAL,              -- seconds, NULL until every segment has a leg
    created_at           REAL NOT NULL,
    updated_at           REAL NOT NULL,
    CHECK ((time_preference = 'leave_now') = (time_preference_at IS NULL))
);
CREATE INDEX plan_by_updated_at ON plan(updated_at DESC, id DESC);

-- The places of a plan in order (position 0 is the origin).
CREATE TABLE plan_node (
    plan_id              INTEGER NOT NULL REFERENCES plan(id) ON DELETE CASCADE,
    position             INTEGER NOT NULL CHECK (position >= 0),
    place_name           TEXT NOT NULL,
    latitude             REAL NOT NULL,
    longitude            REAL NOT NULL,
    kind                 TEXT,
    is_inferred          INTEGER NOT NULL CHECK (is_inferred IN (0, 1)),
    is_current_location  INTEGER NOT NULL CHECK (is_current_location IN (0, 1)),
    PRIMARY KEY (plan_id, position)
) WITHOUT ROWID;

-- Segment `position` goes from node `position` to node `position + 1`: its chosen mode and,
-- when computed, its leg (leg_mode is NULL when there is no leg).
CREATE TABLE plan_segment (
    plan_id              INTEGER NOT NULL REFERENCES plan(id) ON DELETE CASCADE,
    position             INTEGER NOT NULL CHECK (position >= 0),
    mode                 TEXT NOT NULL,     -- TravelMode raw value
    leg_mode             TEXT,
    leg_travel_time      REAL,              -- seconds
    leg_distance         REAL,              -- metres
    leg_departure        REAL,
    leg_arrival          REAL,
    leg_geometry         BLOB,              -- coordinate list blob
    leg_rides            BLOB,              -- transit rides blob
    PRIMARY KEY (plan_id, position),
    CHECK ((leg_mode IS NULL) = (leg_travel_time IS NULL))
) WITHOUT ROWID;

-- What the user decided for a segment, keyed by the place ids of its two ends.
CREATE TABLE plan_lock (
    plan_id              INTEGER NOT NULL REFERENCES plan(id) ON DELETE CASCADE,
    from_place_id        TEXT NOT NULL,
    to_place_id          TEXT NOT NULL,
    mode                 TEXT NOT NULL,
    departure            REAL,
    duration             REAL,
    PRIMARY KEY (plan_id, from_place_id, to_place_id)
) WITHOUT ROWID;

-- The departure the user pinned ("this train"); at most one per plan.
CREATE TABLE plan_pinned_departure (
    plan_id              INTEGER PRIMARY KEY REFERENCES plan(id) ON DELETE CASCADE,
    from_place_id        TEXT NOT NULL,
    to_place_id          TEXT NOT NULL,
    departure            REAL NOT NULL,
    duration             REAL NOT NULL,
    trip_ids             BLOB NOT NULL      -- string list blob
);

-- A newer answer for a pinned segment waiting for the user to accept or dismiss it.
CREATE TABLE plan_pending_update (
    plan_id              INTEGER NOT NULL REFERENCES plan(id) ON DELETE CASCADE,
    from_place_id        TEXT NOT NULL,
    to_place_id          TEXT NOT NULL,
    selected_leg         BLOB NOT NULL,     -- leg blob
    latest_leg           BLOB NOT NULL,     -- leg blob
    PRIMARY KEY (plan_id, from_place_id, to_place_id)
) WITHOUT ROWID;
