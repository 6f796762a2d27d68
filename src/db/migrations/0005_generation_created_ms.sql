-- Generations are shown with millisecond timestamps: store created_at at that precision, so ordering
-- by it (index generations_organization_created_idx) is the order clients can see and check.
ALTER TABLE generations ALTER COLUMN created_at SET DEFAULT date_trunc('milliseconds', now());
