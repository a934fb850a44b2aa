-- 0018: a segment says why, also after a restart (issue 39 item 3). `mode_note` is why the
-- segment has its mode: a hop a preset or a day plan walked because walking is no slower than
-- the ride ("walked: walking (6 min) is no slower than transit (9 min)"), the mode an insert
-- chose for a hop, or a ride the user chose although walking is no slower. `error_code` and
-- `error_message` are the routing error that left the segment's leg empty (`no_route`, ...).
-- NULL: nothing to say (and in rows stored before this step).
ALTER TABLE plan_segment ADD COLUMN mode_note TEXT;
ALTER TABLE plan_segment ADD COLUMN error_code TEXT;
ALTER TABLE plan_segment ADD COLUMN error_message TEXT;
