-- 0010: proposals the user dismissed (`plan dismiss`). The dismissed leg per pinned segment, so
-- that a recompute does not propose the same departure again until the pin, the timetable or
-- the legs that time it change (docs/planner.md, "Dismissed proposals").
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
