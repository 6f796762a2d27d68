-- Listing an organization's generations (GET /v1/responses, GET /v1/chat/completions) pages by keyset
-- on (created_at, id), newest first: this index serves every page, and the cursor comparison
-- (created_at, id) < (…), as one range scan. It also serves the usage endpoint's recent requests
-- (ORDER BY created_at DESC, id DESC), so it replaces generations_organization_created_idx, of which it
-- is an extension.
CREATE INDEX generations_organization_created_id_idx ON generations (organization_id, created_at DESC, id DESC);
DROP INDEX IF EXISTS generations_organization_created_idx;
