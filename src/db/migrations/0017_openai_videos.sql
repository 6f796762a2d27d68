-- Issue 44: the OpenAI Videos shape (/v1/videos, src/api/videos/). What a create of that shape names in
-- its own words, kept beside the generation: the model as the client named it (sora-2), the prompt, the
-- seconds and size as sent, and the video a remix was made from. Generations of the other shapes have
-- no row here; their Video view derives these fields from the generation.
CREATE TABLE openai_videos (
  generation_id         text PRIMARY KEY REFERENCES generations(id) ON DELETE CASCADE,
  model                 text NOT NULL,
  prompt                text NOT NULL,
  seconds               text NOT NULL,
  size                  text NOT NULL,
  remixed_from_video_id text
);
-- DELETE /v1/videos/{id} removes the media and hides the generation from every view and listing (404),
-- while its usage and charges stay counted: the row is kept, marked.
ALTER TABLE generations ADD COLUMN deleted_at timestamptz;
