-- 0016: a plan may go between the same two places twice (two bus rides between the same stops).
-- A segment's decisions are keyed by its two ends' place IDs and `occurrence`: how many segments
-- before it in the plan join the same two places the same way (0 = the first), so a lock, pin,
-- pending update or dismissal on the second ride is not the first's (docs/planner.md,
-- "Segment keys"). Rows stored before this step are the first occurrence (0), which is what
-- they meant. Each table is rebuilt with the occurrence in its primary key.
CREATE TABLE plan_lock_by_occurrence (
    plan_id              INTEGER NOT NULL REFERENCES plan(id) ON DELETE CASCADE,
    from_place_id        TEXT NOT NULL,
    to_place_id          TEXT NOT NULL,
    occurrence           INTEGER NOT NULL DEFAULT 0 CHECK (occurrence >= 0),
    mode                 TEXT NOT NULL,
    departure            REAL,
    duration             REAL,
    chosen_lines         BLOB,
    avoided_stops        BLOB,
    PRIMARY KEY (plan_id, from_place_id, to_place_id, occurrence)
) WITHOUT ROWID;
INSERT INTO plan_lock_by_occurrence(plan_id, from_place_id, to_place_id, occurrence, mode, departure, duration,
                                    chosen_lines, avoided_stops)
    SELECT plan_id, from_place_id, to_place_id, 0, mode, departure, duration, chosen_lines, avoided_stops FROM plan_lock;
DROP TABLE plan_lock;
ALTER TABLE plan_lock_by_occurrence RENAME TO plan_lock;

CREATE TABLE plan_pinned_departure_by_occurrence (
    plan_id              INTEGER NOT NULL REFERENCES plan(id) ON DELETE CASCADE,
    from_place_id        TEXT NOT NULL,
    to_place_id          TEXT NOT NULL,
    occurrence           INTEGER NOT NULL DEFAULT 0 CHECK (occurrence >= 0),
    departure            REAL NOT NULL,
    duration             REAL NOT NULL,
    trip_ids             BLOB NOT NULL,     -- string list blob
    leg                  BLOB,              -- leg blob, or NULL
    PRIMARY KEY (plan_id, from_place_id, to_place_id, occurrence)
) WITHOUT ROWID;
INSERT INTO plan_pinned_departure_by_occurrence(plan_id, from_place_id, to_place_id, occurrence, departure, duration,
                                                trip_ids, leg)
    SELECT plan_id, from_place_id, to_place_id, 0, departure, duration, trip_ids, leg FROM plan_pinned_departure;
DROP TABLE plan_pinned_departure;
ALTER TABLE plan_pinned_departure_by_occurrence RENAME TO plan_pinned_departure;

CREATE TABLE plan_pending_update_by_occurrence (
    plan_id              INTEGER NOT NULL REFERENCES plan(id) ON DELETE CASCADE,
    from_place_id        TEXT NOT NULL,
    to_place_id          TEXT NOT NULL,
    occurrence           INTEGER NOT NULL DEFAULT 0 CHECK (occurrence >= 0),
    selected_leg         BLOB NOT NULL,     -- leg blob
    latest_leg           BLOB NOT NULL,     -- leg blob
    PRIMARY KEY (plan_id, from_place_id, to_place_id, occurrence)
) WITHOUT ROWID;
INSERT INTO plan_pending_update_by_occurrence(plan_id, from_place_id, to_place_id, occurrence, selected_leg, latest_leg)
    SELECT plan_id, from_place_id, to_place_id, 0, selected_leg, latest_leg FROM plan_pending_update;
DROP TABLE plan_pending_update;
ALTER TABLE plan_pending_update_by_occurrence RENAME TO plan_pending_update;

CREATE TABLE plan_dismissed_update_by_occurrence (
    plan_id              INTEGER NOT NULL REFERENCES plan(id) ON DELETE CASCADE,
    from_place_id        TEXT NOT NULL,
    to_place_id          TEXT NOT NULL,
    occurrence           INTEGER NOT NULL DEFAULT 0 CHECK (occurrence >= 0),
    latest_leg           BLOB NOT NULL,     -- leg blob: the proposal that was dismissed
    PRIMARY KEY (plan_id, from_place_id, to_place_id, occurrence)
) WITHOUT ROWID;
INSERT INTO plan_dismissed_update_by_occurrence(plan_id, from_place_id, to_place_id, occurrence, latest_leg)
    SELECT plan_id, from_place_id, to_place_id, 0, latest_leg FROM plan_dismissed_update;
DROP TABLE plan_dismissed_update;
ALTER TABLE plan_dismissed_update_by_occurrence RENAME TO plan_dismissed_update;
