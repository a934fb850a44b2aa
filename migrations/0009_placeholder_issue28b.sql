-- 0009: a placeholder on branch issue28-b only, so that 0010 builds here. Migration 0009
-- belongs to another branch: drop this file when merging that branch.
SELECT 1;
