-- 0008: a history entry keeps its number (its ID on the wire, `s12`, `r7`) when it is repeated.
-- Repeating a search or a route moved it to the front by deleting its row and inserting a new
-- one, under a new number. The order now has a column of its own: the repeated entry is written
-- again with its old number and the next position. Existing rows keep their order.
ALTER TABLE search_history ADD COLUMN position INTEGER NOT NULL DEFAULT 0;
UPDATE search_history SET position = sequence;
CREATE INDEX search_history_by_position ON search_history(position);

ALTER TABLE route_history ADD COLUMN position INTEGER NOT NULL DEFAULT 0;
UPDATE route_history SET position = sequence;
CREATE INDEX route_history_by_position ON route_history(position);

ALTER TABLE visit_history ADD COLUMN position INTEGER NOT NULL DEFAULT 0;
UPDATE visit_history SET position = sequence;
CREATE INDEX visit_history_by_position ON visit_history(position);
