-- 0013: step-free (wheelchair) plans (issue 24, docs/planner.md "Step-free plans").
-- plan.access: the plan's AccessNeed raw value, set by `plan new --wheelchair[=strict]`,
-- `plan preset … --wheelchair` or `plan access ID wheelchair|wheelchair-strict|any`.
-- Plans stored before it read as 'any'.
ALTER TABLE plan ADD COLUMN access TEXT NOT NULL DEFAULT 'any'
    CHECK (access IN ('any', 'wheelchair', 'wheelchair_strict'));
-- route_history.plan_access: the access a plan's entry was made with, so `history rerun` makes
-- the same kind of plan (NULL: a comparison, or an entry made before it, rerun as 'any').
ALTER TABLE route_history ADD COLUMN plan_access TEXT
    CHECK (plan_access IS NULL OR plan_access IN ('any', 'wheelchair', 'wheelchair_strict'));
