-- Webhooks: per-organization settings (event toggles, signing secret), every event sent and every
-- delivery attempt.

CREATE TABLE webhook_settings (
  organization_id            text PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  -- Event types delivered to requests that carry a webhook_url.
  enabled_events             text[] NOT NULL DEFAULT ARRAY['video.generation.completed'],
  -- `whsec_` + base64. Kept in clear: HMAC signing needs the key itself.
  signing_secret             text NOT NULL,
  -- After a rotation the previous secret keeps signing alongside the new one until it expires.
  previous_signing_secret    text,
  previous_secret_expires_at timestamptz,
  created_at                 timestamptz NOT NULL DEFAULT now(),
  updated_at                 timestamptz NOT NULL DEFAULT now()
);

-- One row per event; `body` is the exact JSON every attempt sends and signs.
CREATE TABLE webhook_events (
  id              text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  generation_id   text NOT NULL REFERENCES generations(id) ON DELETE CASCADE,
  type            text NOT NULL,
  url             text NOT NULL,
  body            text NOT NULL,
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed', 'gone')),
  attempts        integer NOT NULL DEFAULT 0,
  created_at      timestamptz NOT NULL DEFAULT now(),
  finished_at     timestamptz
);
CREATE INDEX webhook_events_organization_idx ON webhook_events (organization_id, created_at DESC);
CREATE INDEX webhook_events_generation_idx ON webhook_events (generation_id);

CREATE TABLE webhook_attempts (
  event_id          text NOT NULL REFERENCES webhook_events(id) ON DELETE CASCADE,
  attempt           integer NOT NULL CHECK (attempt >= 1),
  attempted_at      timestamptz NOT NULL,
  -- Null when no response came (rejected address, DNS, TLS, connection, timeout): see `error`.
  status_code       integer,
  duration_ms       integer NOT NULL,
  error             text,
  response_excerpt  text,
  PRIMARY KEY (event_id, attempt)
);
