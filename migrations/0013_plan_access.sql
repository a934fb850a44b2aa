-- 0013: step-free (wheelchair) plans (issue 24, docs/planner.md "Step-free plans").
-- plan.access: the plan's AccessNeed raw value, set by `plan new --wheelchair[=strict]`,
-- `plan preset … --wheelchair` or `plan access ID wheelchair|wheelchair-strict|any`.
-- Plans stored before it read as 'any'.
ALTER TABLE plan ADD COLUMN access TEXT NOT NULL DEFAULT 'any'
    CHECK (access IN ('any', 'wheelchair', 'wheelchair_strict'));
