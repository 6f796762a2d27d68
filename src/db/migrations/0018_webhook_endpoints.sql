-- Issue 44: organization webhook endpoints (extension). URLs an organization registers once (API or
-- dashboard) that receive OpenAI's `video.completed` / `video.failed` events for every video created
-- in the OpenAI Videos shape, signed with the organization's webhook secret like every event.
CREATE TABLE webhook_endpoints (
  id              text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  url             text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, url)
);
