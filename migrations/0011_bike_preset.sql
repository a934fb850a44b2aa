-- 0011: the bicycle is a fourth travel mode (issue 24), and `bike` a plan preset.
--
-- route_history.plan_preset's CHECK lists the presets, and SQLite cannot change a column's
-- CHECK, so route_history is rebuilt with 'bike' allowed, its columns in the same order.
-- route_history_via references it with ON DELETE CASCADE and foreign keys are on while
-- migrations run: its rows are kept aside in a temporary table while the old table is dropped
-- (as in 0009). The AUTOINCREMENT counter is carried over, so an entry number is never given
-- again. Modes elsewhere (plan_segment.mode, leg blobs, answers) are free text: no change.
CREATE TABLE route_history_with_bike (
    sequence        INTEGER PRIMARY KEY AUTOINCREMENT,
    entry_id        TEXT NOT NULL UNIQUE,
    from_name       TEXT NOT NULL,
    from_latitude   REAL NOT NULL,
    from_longitude  REAL NOT NULL,
    from_kind       TEXT,
    to_name         TEXT NOT NULL,
    to_latitude     REAL NOT NULL,
    to_longitude    REAL NOT NULL,
    to_kind         TEXT,
    modes           TEXT NOT NULL,
    recorded_at     REAL NOT NULL,
    region          TEXT,
    from_text       TEXT,
    to_text         TEXT,
    time_kind       TEXT CHECK (time_kind IN ('leave_now', 'depart_at', 'arrive_by')),
    requested_time  REAL,
    answers         TEXT,
    fastest         TEXT,
    position        INTEGER NOT NULL DEFAULT 0,
    plan_preset     TEXT CHECK (plan_preset IN ('walk', 'transit', 'car', 'bike', 'fastest')),
    plan_pace       TEXT,
    plan_title      TEXT,
    plan_title_given INTEGER CHECK (plan_title_given IN (0, 1))
);
INSERT INTO route_history_with_bike SELECT sequence, entry_id, from_name, from_latitude, from_longitude,
    from_kind, to_name, to_latitude, to_longitude, to_kind, modes, recorded_at, region, from_text, to_text,
    time_kind, requested_time, answers, fastest, position, plan_preset, plan_pace, plan_title, plan_title_given
    FROM route_history;
DELETE FROM sqlite_sequence WHERE name = 'route_history_with_bike';
INSERT INTO sqlite_sequence(name, seq)
    SELECT 'route_history_with_bike', seq FROM sqlite_sequence WHERE name = 'route_history';

CREATE TEMP TABLE kept_route_history_via AS SELECT * FROM route_history_via;
DROP TABLE route_history;  -- cascades: route_history_via is empty now
ALTER TABLE route_history_with_bike RENAME TO route_history;
CREATE INDEX route_history_by_position ON route_history(position);
INSERT INTO route_history_via SELECT * FROM temp.kept_route_history_via;
DROP TABLE temp.kept_route_history_via;
