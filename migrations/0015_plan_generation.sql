-- 0015: a plan's generation is stored with it (issue 27), so it survives a restart of the daemon.
-- It grows with every change of the plan and is written in the same transaction as the change:
-- an `expected_generation` read before a restart still names the same plan state after it, and
-- a calendar export's SEQUENCE (the generation) never goes back. A new plan (or a copy) is
-- stored at 1; plans stored before this step read as 0, which is what they showed after a
-- restart until then.
ALTER TABLE plan ADD COLUMN generation INTEGER NOT NULL DEFAULT 0 CHECK (generation >= 0);
