-- 0019: when a plan starts, for the plan list (issue 39). `starts_at` is the first node's time
-- as `plan show` shows it (`RoutePlan.schedule()`), in seconds since 2001-01-01 UTC as the other
-- instants; with `total_travel_time` it gives the two times the list's total is the shown
-- difference of, so `plan list` and `plan show` read the same minutes. NULL when the plan has
-- no time there (a leave-now plan with no dated leg, whose start is "now") and in rows stored
-- before this step (until the plan is saved again).
ALTER TABLE plan ADD COLUMN starts_at REAL;
