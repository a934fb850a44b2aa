-- 0004: geofences around saved places, and the visits they record.
--
-- A saved place may carry a fence: geofence_radius_m is its enter radius in metres (NULL: the
-- place never had a fence), geofence_on whether it is watched now. Turning a fence off keeps
-- its radius, so turning it on again needs no number. The exit radius is derived (1.5 times
-- the enter radius, as 80 m / 120 m in the write-up), so it is not stored. The fence's state
-- (inside / outside) is never stored: after a restart it is unknown again.
ALTER TABLE saved_place ADD COLUMN geofence_radius_m REAL CHECK (geofence_radius_m IS NULL OR geofence_radius_m > 0);
ALTER TABLE saved_place ADD COLUMN geofence_on INTEGER NOT NULL DEFAULT 0 CHECK (geofence_on IN (0, 1));

-- Arrivals at and departures from fenced places, newest first by sequence. The place is
-- copied (name and centre) so that renaming or removing it later does not rewrite the past.
-- At most 20 rows are kept, like the other histories. entry_id is unique per event.
CREATE TABLE visit_history (
    sequence      INTEGER PRIMARY KEY AUTOINCREMENT,
    entry_id      TEXT NOT NULL UNIQUE,
    place_name    TEXT NOT NULL,
    event         TEXT NOT NULL CHECK (event IN ('arrived', 'left')),
    latitude      REAL NOT NULL,     -- the fix that decided it
    longitude     REAL NOT NULL,
    accuracy_m    REAL NOT NULL,
    fix_time      REAL NOT NULL,
    recorded_at   REAL NOT NULL
);
