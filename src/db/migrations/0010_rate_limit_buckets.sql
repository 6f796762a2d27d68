-- The sliding-window limiter counts buckets, not only API keys: unauthenticated requests are counted
-- per client address (bucket `address:<ip>`), which is no api_keys row. Rows of a deleted key are no
-- longer removed with it; the periodic sweep deletes them once idle for a window.
ALTER TABLE rate_limit_counts DROP CONSTRAINT IF EXISTS rate_limit_counts_api_key_id_fkey;
