-- Version 4: the parts of a message by ordinal. Appending a part reads the message's last
-- ordinal, and bounding the decision map reads its newest entries: without these indexes both
-- walked every part of the message, so one long message slowed every write to it.
CREATE INDEX tool_parts_by_ordinal ON tool_parts (message, ordinal);
CREATE INDEX part_decisions_by_ordinal ON part_decisions (message, ordinal);
