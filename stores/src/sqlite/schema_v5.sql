-- Version 5: the decision map as two columns of the part it belongs to. A table of its own
-- cost every decision a row in it and an entry in each of its two indexes (three pages of the
-- write-ahead log, each a different one for every message), and bounding it three more; as
-- columns, the entry lands in the page the part is written to anyway, and bounding it clears
-- the columns of the one part that fell out of the map.
ALTER TABLE tool_parts ADD COLUMN decision TEXT;
ALTER TABLE tool_parts ADD COLUMN resolution TEXT;
UPDATE tool_parts
SET decision = d.decision, resolution = d.resolution
FROM part_decisions d
WHERE d.message = tool_parts.message AND d.tool_call_id = tool_parts.tool_call_id;
DROP TABLE part_decisions;
