-- 0017: a comparison's options kept with its route history entry (issue 41), so that
-- `history rerun` asks the same again and the entry says how it was asked: the walking pace,
-- the step-free setting and the modes compared (the time asked, arrive-by included, is already
-- in time_kind / requested_time). NULL in an entry `plan new` made (its options are the plan_*
-- columns) and in comparisons recorded before this step (rerun at a normal pace, access 'any',
-- every mode).
ALTER TABLE route_history ADD COLUMN compare_pace TEXT
    CHECK (compare_pace IS NULL OR compare_pace IN ('slow', 'normal', 'fast'));
ALTER TABLE route_history ADD COLUMN compare_access TEXT
    CHECK (compare_access IS NULL OR compare_access IN ('any', 'wheelchair', 'wheelchair_strict'));
-- The modes compared, comma-separated in the order compared, e.g. 'walk,transit,car,bike'.
ALTER TABLE route_history ADD COLUMN compare_modes TEXT;
