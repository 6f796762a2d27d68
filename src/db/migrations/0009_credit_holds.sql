-- Credit holds (README, "Credits and holds"): a generation reserves its worst-case cost at admission.
-- The hold is the generation's own column, counted while the generation is open (queued or
-- in_progress): writing its end releases it, in the transaction that charges the exact cost, so a hold
-- lives exactly as long as its workflow has not finished and needs no sweeper. Older generations hold 0.
ALTER TABLE generations ADD COLUMN hold_micros bigint NOT NULL DEFAULT 0;
-- Admission sums an organization's open holds: only open generations are in this index.
CREATE INDEX generations_open_holds_idx ON generations (organization_id) INCLUDE (hold_micros)
  WHERE status IN ('queued', 'in_progress');
