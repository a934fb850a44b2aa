-- 0009: plan IDs are never given again, and route history keeps the whole plan it made.
--
-- plan.id becomes AUTOINCREMENT: a deleted plan's ID went to the next plan (SQLite reuses the
-- highest rowid once it is freed), so a script or a person holding "plan 7" could act on
-- another plan. SQLite cannot add AUTOINCREMENT to a table, so `plan` is rebuilt. Its child
-- tables reference it with ON DELETE CASCADE, and foreign keys are on while migrations run:
-- dropping the old table would cascade into them. So their rows are kept aside in temporary
-- tables first and put back once the new `plan` has its name (the child tables still name
-- `plan`, which is then the new table). IDs freed before this step, above the highest kept
-- one, may be given once more; none after it.
CREATE TABLE plan_autoincrement (
    id                   INTEGER PRIMARY KEY AUTOINCREMENT,
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
    legs_pending         INTEGER NOT NULL DEFAULT 0,  -- 1 while a recompute is owed (0007)
    CHECK ((time_preference = 'leave_now') = (time_preference_at IS NULL))
);
INSERT INTO plan_autoincrement(id, title, time_preference, time_preference_at, pace, from_name, to_name,
    total_travel_time, created_at, updated_at, legs_pending)
SELECT id, title, time_preference, time_preference_at, pace, from_name, to_name,
    total_travel_time, created_at, updated_at, legs_pending FROM plan;

CREATE TEMP TABLE kept_plan_node AS SELECT * FROM plan_node;
CREATE TEMP TABLE kept_plan_segment AS SELECT * FROM plan_segment;
CREATE TEMP TABLE kept_plan_lock AS SELECT * FROM plan_lock;
CREATE TEMP TABLE kept_plan_pinned_departure AS SELECT * FROM plan_pinned_departure;
CREATE TEMP TABLE kept_plan_pending_update AS SELECT * FROM plan_pending_update;

DROP TABLE plan;  -- cascades: the child tables are empty now
ALTER TABLE plan_autoincrement RENAME TO plan;
CREATE INDEX plan_by_updated_at ON plan(updated_at DESC, id DESC);

INSERT INTO plan_node SELECT * FROM temp.kept_plan_node;
INSERT INTO plan_segment SELECT * FROM temp.kept_plan_segment;
INSERT INTO plan_lock SELECT * FROM temp.kept_plan_lock;
INSERT INTO plan_pinned_departure SELECT * FROM temp.kept_plan_pinned_departure;
INSERT INTO plan_pending_update SELECT * FROM temp.kept_plan_pending_update;
DROP TABLE temp.kept_plan_node;
DROP TABLE temp.kept_plan_segment;
DROP TABLE temp.kept_plan_lock;
DROP TABLE temp.kept_plan_pinned_departure;
DROP TABLE temp.kept_plan_pending_update;

-- A route entry made by `plan new` keeps what a rerun needs to make the same plan again:
-- the places between its ends (route_history_via, in order, with what was typed for each),
-- the preset ('walk', 'transit', 'car' or 'fastest'), the pace, and the plan's title (given
-- by the user when plan_title_given is 1, else generated from the places). plan_preset is
-- NULL for a comparison, and for every entry recorded before this step.
ALTER TABLE route_history ADD COLUMN plan_preset TEXT CHECK (plan_preset IN ('walk', 'transit', 'car', 'fastest'));
ALTER TABLE route_history ADD COLUMN plan_pace TEXT;
ALTER TABLE route_history ADD COLUMN plan_title TEXT;
ALTER TABLE route_history ADD COLUMN plan_title_given INTEGER CHECK (plan_title_given IN (0, 1));

CREATE TABLE route_history_via (
    sequence      INTEGER NOT NULL REFERENCES route_history(sequence) ON DELETE CASCADE,
    position      INTEGER NOT NULL CHECK (position >= 0),
    place_name    TEXT NOT NULL,
    latitude      REAL NOT NULL,
    longitude     REAL NOT NULL,
    kind          TEXT,
    typed_text    TEXT,             -- what the user typed for this place, when known
    PRIMARY KEY (sequence, position)
) WITHOUT ROWID;
