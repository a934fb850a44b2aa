-- 0003: keep the leg the user pinned, so that a recompute that cannot re-find the same
-- departure still shows the user's own choice (rides, stops, times) after a restart.
-- NULL for pins saved before this step and for pins without a computed leg.
ALTER TABLE plan_pinned_departure ADD COLUMN leg BLOB;  -- leg blob, or NULL
