// Brand kits (extension): one row per organization (migration 0011). The logo's bytes live in
// storage under `logo_key`; the row keeps its description.
import type { BrandColours, BrandFont } from '../shared.js';
import type { Db } from './pool.js';

/** A stored logo: where its bytes are and what they are. */
export type StoredLogo = { key: string; mediaType: string; bytes: number; width: number; height: number };

export type BrandKit = {
  colors: BrandColours;
  font: BrandFont | null;
  logo: StoredLogo | null;
  logo_on_closing: boolean;
  updated_at: string | null;
};

/** What an organization without a kit has: nothing set, the logo (once given) on the closing scene. */
export const EMPTY_BRAND_KIT: BrandKit = {
  colors: { background: null, text: null, accent: null },
  font: null,
  logo: null,
  logo_on_closing: true,
  updated_at: null,
};

export async function getBrandKit(db: Pick<Db, 'query'>, organizationId: string): Promise<BrandKit | null> {
  const { rows } = await db.query('SELECT * FROM brand_kits WHERE organization_id = $1', [organizationId]);
  const r = rows[0];
  if (!r) return null;
  return {
    colors: { background: r.background, text: r.text_colour, accent: r.accent },
    font: r.font,
    logo: r.logo_key
      ? {
          key: r.logo_key,
          mediaType: r.logo_media_type,
          bytes: r.logo_bytes,
          width: r.logo_width,
          height: r.logo_height,
        }
      : null,
    logo_on_closing: r.logo_on_closing,
    updated_at: r.updated_at.toISOString(),
  };
}

/** Replaces the organization's kit (created on first use). */
export async function putBrandKit(
  db: Db,
  organizationId: string,
  kit: Omit<BrandKit, 'updated_at'>,
): Promise<BrandKit> {
  const { colors, font, logo } = kit;
  await db.query(
    `INSERT INTO brand_kits (organization_id, background, text_colour, accent, font, logo_key, logo_media_type,
                             logo_bytes, logo_width, logo_height, logo_on_closing, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, now())
     ON CONFLICT (organization_id) DO UPDATE SET background = $2, text_colour = $3, accent = $4, font = $5,
       logo_key = $6, logo_media_type = $7, logo_bytes = $8, logo_width = $9, logo_height = $10,
       logo_on_closing = $11, updated_at = now()`,
    [
      organizationId,
      colors.background,
      colors.text,
      colors.accent,
      font,
      logo?.key ?? null,
      logo?.mediaType ?? null,
      logo?.bytes ?? null,
      logo?.width ?? null,
      logo?.height ?? null,
      kit.logo_on_closing,
    ],
  );
  return (await getBrandKit(db, organizationId))!;
}
