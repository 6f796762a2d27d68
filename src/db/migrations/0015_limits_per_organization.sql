-- Limits per organization (README "Security"): every open event stream holds a lease row, so every
-- API process counts the same streams per key and per organization. A process refreshes its leases
-- while their streams are open; a lease whose process died expires on its own.
CREATE TABLE stream_leases (
  id              bigserial PRIMARY KEY,
  organization_id text NOT NULL,
  -- `key:<api key id>` or `member:<member id>` (dashboard live pages).
  holder          text NOT NULL,
  expires_at      timestamptz NOT NULL
);
CREATE INDEX stream_leases_organization_idx ON stream_leases (organization_id, expires_at);
CREATE INDEX stream_leases_holder_idx ON stream_leases (holder, expires_at);

-- Bytes of media an organization stored (request images and media URLs it had fetched, its logo),
-- checked against the per-organization quota before anything more is stored.
CREATE TABLE organization_media_usage (
  organization_id text PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  bytes           bigint NOT NULL DEFAULT 0 CHECK (bytes >= 0)
);
INSERT INTO organization_media_usage (organization_id, bytes)
  SELECT organization_id, logo_bytes FROM brand_kits WHERE logo_bytes IS NOT NULL
  ON CONFLICT (organization_id) DO NOTHING;
