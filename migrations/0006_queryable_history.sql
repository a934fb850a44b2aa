-- 0004: history entries that can be queried and re-run.
--
-- Both lists already have a stable number per entry (sequence); this adds what a query needs:
-- the region an entry belongs to, and for routes what was typed, the requested time, the modes
-- compared and a summary of the answer. Rows written before this migration keep NULL in every
-- new column (the store reads them as "unknown").

-- The region whose place index found the picked place.
ALTER TABLE search_history ADD COLUMN region TEXT;

-- The region the trip was planned in.
ALTER TABLE route_history ADD COLUMN region TEXT;
-- The text the user typed for each end (a saved place's name, coordinates, or searched text).
ALTER TABLE route_history ADD COLUMN from_text TEXT;
ALTER TABLE route_history ADD COLUMN to_text TEXT;
-- 'leave_now', 'depart_at' or 'arrive_by'; requested_time is NULL for leave_now.
ALTER TABLE route_history ADD COLUMN time_kind TEXT CHECK (time_kind IN ('leave_now', 'depart_at', 'arrive_by'));
ALTER TABLE route_history ADD COLUMN requested_time REAL;
-- The answer per mode compared, comma-separated 'mode=seconds' (whole seconds; 'mode=' when that
-- mode had no answer), e.g. 'walk=845,transit=576,car=200'; and the fastest mode or NULL.
ALTER TABLE route_history ADD COLUMN answers TEXT;
ALTER TABLE route_history ADD COLUMN fastest TEXT;
