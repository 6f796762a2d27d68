-- Where a generation's storyboard is stored (issue 32): the one a storyboard request sent, or the one
-- the embedded composer planned; the API links it as storyboard_url. Null: none (an LLM's composition).
ALTER TABLE generations ADD COLUMN storyboard_key text;
