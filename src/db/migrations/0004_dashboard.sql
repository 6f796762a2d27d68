-- Dashboard sign-in: organization members (email + scrypt password hash), their server-side
-- sessions and recent failed sign-ins (the login rate limit).

CREATE TABLE members (
  id              text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  -- Stored lower-cased and trimmed; one account per email across the whole installation.
  email           text NOT NULL UNIQUE,
  -- `scrypt$<log2 N>$<r>$<p>$<salt base64>$<hash base64>`: the parameters travel with the hash.
  password_hash   text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX members_organization_idx ON members (organization_id);

CREATE TABLE dashboard_sessions (
  -- SHA-256 of the cookie's token: a database reader cannot take over sessions.
  token_hash      bytea PRIMARY KEY,
  member_id       text NOT NULL REFERENCES members(id) ON DELETE CASCADE,
  -- Synchronizer token every state-changing form must echo.
  csrf_token      text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  last_seen_at    timestamptz NOT NULL DEFAULT now(),
  -- Sliding idle expiry, never past created_at + the absolute lifetime.
  expires_at      timestamptz NOT NULL
);
CREATE INDEX dashboard_sessions_member_idx ON dashboard_sessions (member_id);
CREATE INDEX dashboard_sessions_expires_idx ON dashboard_sessions (expires_at);

-- One row per failed sign-in; rows older than the limit's window are swept.
CREATE TABLE login_failures (
  id         bigserial PRIMARY KEY,
  email      text NOT NULL,
  ip         text NOT NULL,
  failed_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_failures_email_idx ON login_failures (email, failed_at);
CREATE INDEX login_failures_ip_idx ON login_failures (ip, failed_at);
CREATE INDEX login_failures_failed_at_idx ON login_failures (failed_at);
