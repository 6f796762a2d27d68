-- Idempotency-Key of create requests: per organization, the request's hash and the generation it
-- started, kept 24 h (an older row is taken over by the next request with the same key).
CREATE TABLE idempotency_keys (
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  key text NOT NULL,
  request_hash text NOT NULL,
  generation_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, key)
);
