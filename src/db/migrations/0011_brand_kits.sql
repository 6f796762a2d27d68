-- Brand kits (extension): one per organization. Colours are #rrggbb or null (the composer's own),
-- the font one of the installed type styles or null; the logo is an image stored like user media
-- (its storage key and description), shown on the closing scene when logo_on_closing.
CREATE TABLE brand_kits (
  organization_id  text PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  background       text,
  text_colour      text,
  accent           text,
  font             text,
  logo_key         text,
  logo_media_type  text,
  logo_bytes       integer,
  logo_width       integer,
  logo_height      integer,
  logo_on_closing  boolean NOT NULL DEFAULT true,
  updated_at       timestamptz NOT NULL DEFAULT now()
);

-- A key may change its organization's brand kit (PUT /v1/brand) only when created with this right:
-- the kit restyles every video of the organization, so a key that only makes videos cannot.
ALTER TABLE api_keys ADD COLUMN can_manage_brand boolean NOT NULL DEFAULT false;
