-- 0010: edits that compose (issue 28). plan_dismissed_update: proposals the user dismissed
-- (`plan dismiss`), the dismissed leg per pinned segment, so that a recompute does not propose
-- the same departure again until the pin, the timetable or the legs that time it change
-- (docs/planner.md, "Dismissed proposals").
CREATE TABLE plan_dismissed_update (
    plan_id              INTEGER NOT NULL REFERENCES plan(id) ON DELETE CASCADE,
    from_place_id        TEXT NOT NULL,
    to_place_id          TEXT NOT NULL,
    latest_leg           BLOB NOT NULL,     -- leg blob: the proposal that was dismissed
    PRIMARY KEY (plan_id, from_place_id, to_place_id)
) WITHOUT ROWID;

-- plan_lock.avoided_stops: stops the user removed from the segment ("don't go via there"),
-- whose transit queries avoid them; a string list blob of "lat,lon" (7 decimals), NULL: none.
ALTER TABLE plan_lock ADD COLUMN avoided_stops BLOB;

-- A plan holds one pin per segment (a day plan's morning train and evening bus), not one per
-- plan: plan_pinned_departure is keyed by the plan and the segment's two ends.
CREATE TABLE plan_pinned_departure_per_segment (
    plan_id              INTEGER NOT NULL REFERENCES plan(id) ON DELETE CASCADE,
    from_place_id        TEXT NOT NULL,
    to_place_id          TEXT NOT NULL,
    departure            REAL NOT NULL,
    duration             REAL NOT NULL,
    trip_ids             BLOB NOT NULL,     -- string list blob
    leg                  BLOB,              -- leg blob, or NULL
    PRIMARY KEY (plan_id, from_place_id, to_place_id)
) WITHOUT ROWID;
INSERT INTO plan_pinned_departure_per_segment(plan_id, from_place_id, to_place_id, departure, duration, trip_ids, leg)
    SELECT plan_id, from_place_id, to_place_id, departure, duration, trip_ids, leg FROM plan_pinned_departure;
DROP TABLE plan_pinned_departure;
ALTER TABLE plan_pinned_departure_per_segment RENAME TO plan_pinned_departure;
