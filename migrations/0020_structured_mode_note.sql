-- 0020: a segment's mode note is data, put in words when the plan is shown (issue 39).
-- `mode_note_data` is the note as the planner judged it, JSON of `ModeNote`: its `kind`
-- ("walked_no_slower", "ridden_faster", "way_to_pinned_ride", ...) and the figures judged
-- (`walking` and `riding` in seconds, counted from `from`, seconds since 2001-01-01 UTC; the
-- metres a ride walks; the transit answer's words when none was found). It is stored whether or
-- not it reads true of the segment's leg now, so a note that says nothing for a while is not lost.
-- A note stored as words before this step keeps its words (`storedWords`, shown as they were)
-- with the kind its words began with, so a walk the planner chose stays the planner's to judge
-- again; `mode_note` is no longer written.
ALTER TABLE plan_segment ADD COLUMN mode_note_data TEXT;
UPDATE plan_segment SET mode_note_data = json_object(
    'kind', CASE
        WHEN mode_note LIKE 'walked: walking (%' THEN 'walked_no_slower'
        WHEN mode_note LIKE 'walked: the ride walks %' THEN 'walked_ride_walks_farther'
        WHEN mode_note LIKE 'walked: no transit route found%' THEN 'walked_no_transit_route'
        WHEN mode_note LIKE 'walked: the way to the pinned ride%' THEN 'way_to_pinned_ride'
        WHEN mode_note LIKE 'walked: the way from the pinned ride%' THEN 'way_from_pinned_ride'
        WHEN mode_note LIKE 'by transit: no walking route found%' THEN 'ridden_no_walking_route'
        WHEN mode_note LIKE 'by transit: %' THEN 'ridden_faster'
        WHEN mode_note LIKE 'walking (%' THEN 'ridden_walking_no_slower'
        ELSE 'not_driven' END,
    'storedWords', mode_note)
WHERE mode_note IS NOT NULL;
UPDATE plan_segment SET mode_note = NULL;
