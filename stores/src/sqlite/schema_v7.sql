-- Version 7: the decision map bounded by a floor kept with the message. Up to version 6,
-- each part past the map's limit cleared the columns of the part `limit` places back, which
-- wrote an old page of `tool_parts` (one no other write of the commit touched) for every
-- decision of a long message. From version 7 the map holds no part at or below the
-- message's `map_floor`, whatever its columns say: moving the floor writes the message's
-- row, a small table whose pages a commit shares. The floor starts below the message's first
-- part holding an entry (every part below it holds none), so what the map serves is
-- unchanged.
ALTER TABLE messages ADD COLUMN map_floor INTEGER NOT NULL DEFAULT 0;
UPDATE messages
SET map_floor = coalesce(
    (SELECT min(ordinal) - 1 FROM tool_parts
     WHERE message = messages.id AND (decision IS NOT NULL OR resolution IS NOT NULL)),
    (SELECT coalesce(max(ordinal), 0) FROM tool_parts WHERE message = messages.id));
