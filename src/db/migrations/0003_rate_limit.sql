-- Per-key sliding-window rate limit (interface section 8), shared by every API process.
-- A sliding log: one row per accepted request, kept while it is inside the window, plus one row per
-- key holding their count. The count row is the key's lock and makes a request cost O(log n) however
-- high the limit: no request ever counts rows.
-- UNLOGGED: after a crash the tables are emptied, which only forgives one window of requests, and
-- skipping the WAL keeps the per-request writes cheap.
CREATE UNLOGGED TABLE rate_limit_counts (
  api_key_id text PRIMARY KEY REFERENCES api_keys(id) ON DELETE CASCADE,
  -- Rows of rate_limit_hits of this key.
  in_window  integer NOT NULL,
  updated_at timestamptz NOT NULL
);
-- Finds keys idle for longer than the window, which the periodic sweep deletes.
CREATE INDEX rate_limit_counts_updated_idx ON rate_limit_counts (updated_at);

CREATE UNLOGGED TABLE rate_limit_hits (
  api_key_id text NOT NULL REFERENCES rate_limit_counts(api_key_id) ON DELETE CASCADE,
  hit_at     timestamptz NOT NULL
);
CREATE INDEX rate_limit_hits_key_time_idx ON rate_limit_hits (api_key_id, hit_at);

-- Counts one request of a key, or refuses it when `max_requests` accepted requests are already
-- inside the window. Atomic per key: everything happens under the key's count-row lock, and each
-- statement here reads a fresh snapshot, so it sees every request committed before it got the lock.
-- Time is the database clock, the one clock all API processes share.
CREATE FUNCTION rate_limit_take(key_id text, max_requests integer, window_length interval)
RETURNS TABLE (allowed boolean, used integer, oldest timestamptz, checked_at timestamptz)
LANGUAGE plpgsql AS $$
DECLARE
  expired integer;
BEGIN
  LOOP
    SELECT c.in_window INTO used FROM rate_limit_counts c WHERE c.api_key_id = key_id FOR UPDATE;
    EXIT WHEN FOUND;
    INSERT INTO rate_limit_counts (api_key_id, in_window, updated_at) VALUES (key_id, 0, clock_timestamp())
    ON CONFLICT DO NOTHING;
  END LOOP;
  checked_at := clock_timestamp();
  DELETE FROM rate_limit_hits h WHERE h.api_key_id = key_id AND h.hit_at <= checked_at - window_length;
  GET DIAGNOSTICS expired = ROW_COUNT;
  used := used - expired;
  allowed := used < max_requests;
  IF allowed THEN
    INSERT INTO rate_limit_hits (api_key_id, hit_at) VALUES (key_id, checked_at);
    used := used + 1;
  END IF;
  UPDATE rate_limit_counts c SET in_window = used, updated_at = checked_at WHERE c.api_key_id = key_id;
  SELECT min(h.hit_at) INTO oldest FROM rate_limit_hits h WHERE h.api_key_id = key_id;
  RETURN NEXT;
END
$$;
