-- 0004: a day of several places and the user's choices in it.
-- plan_node.stay_seconds / stay_until: time spent at the node before the next leg leaves
-- (`plan stay`): a duration in seconds, or an instant to stay until; at most one is set,
-- both NULL for no stay (and for every node saved before this step).
ALTER TABLE plan_node ADD COLUMN stay_seconds REAL CHECK (stay_seconds IS NULL OR stay_seconds >= 0);
ALTER TABLE plan_node ADD COLUMN stay_until REAL CHECK (stay_until IS NULL OR stay_seconds IS NULL);
-- plan_lock.chosen_lines: the lines of the alternative the user chose for the segment
-- (`plan choose`, `plan pin --line`), a string list blob; NULL when none was chosen.
ALTER TABLE plan_lock ADD COLUMN chosen_lines BLOB;
