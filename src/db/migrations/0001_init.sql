-- Organizations, their API keys, the credit ledger and generations.
-- Money is stored as integer micro-dollars (1 USD = 1 000 000, 1 cent = 10 000).

CREATE TABLE organizations (
  id                    text PRIMARY KEY,
  name                  text NOT NULL,
  credit_balance_micros bigint NOT NULL DEFAULT 0,
  created_at            timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id              text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name            text NOT NULL,
  -- SHA-256 of the full key; the key itself is never stored.
  key_hash        bytea NOT NULL UNIQUE,
  -- First characters of the key, shown in listings so users can tell keys apart.
  key_prefix      text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  last_used_at    timestamptz,
  revoked_at      timestamptz
);
CREATE INDEX api_keys_organization_idx ON api_keys (organization_id);

-- Every credit movement is a row; organizations.credit_balance_micros moves in the same transaction.
CREATE TABLE credit_ledger (
  id              bigserial PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  kind            text NOT NULL CHECK (kind IN ('top_up', 'generation_charge', 'refund')),
  amount_micros   bigint NOT NULL,
  generation_id   text,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX credit_ledger_organization_idx ON credit_ledger (organization_id, created_at);
-- A generation is charged at most once, however often the charging activity retries.
CREATE UNIQUE INDEX credit_ledger_one_charge_per_generation
  ON credit_ledger (generation_id) WHERE kind = 'generation_charge';

CREATE TABLE generations (
  id               text PRIMARY KEY,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  api_key_id       text,
  status           text NOT NULL CHECK (status IN ('queued', 'in_progress', 'completed', 'failed', 'cancelled', 'incomplete')),
  model            text NOT NULL,
  engine           text NOT NULL,
  provider         text,
  request          jsonb NOT NULL,
  app_name         text,
  app_referer      text,
  app_title        text,
  webhook_url      text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  started_at       timestamptz,
  completed_at     timestamptz,
  video_key        text,
  artifact_key     text,
  artifact_type    text,
  input_tokens     integer,
  output_tokens    integer,
  cost_micros      bigint,
  latency_ms       integer,
  duration_seconds double precision,
  error_code       text,
  error_message    text
);
CREATE INDEX generations_organization_created_idx ON generations (organization_id, created_at DESC);
