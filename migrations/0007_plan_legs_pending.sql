-- 0004: mark a plan whose legs are being recomputed. An edit is stored at once with the legs
-- it touched empty and this flag set; the recomputed legs are stored with it cleared. A plan
-- still marked at start-up lost its recompute to a crash or kill, and the daemon recomputes it.
ALTER TABLE plan ADD COLUMN legs_pending INTEGER NOT NULL DEFAULT 0;  -- 1 while a recompute is owed
