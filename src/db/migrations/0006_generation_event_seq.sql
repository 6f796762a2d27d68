-- The number of the generation's last live event (its terminal state), so a stream that attaches
-- after the end numbers the final event like one that watched it happen.
ALTER TABLE generations ADD COLUMN event_seq integer;
