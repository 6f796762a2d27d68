// Brand kit schemas (extension): the PUT /v1/brand body, and the `brand` field of both create shapes.
import { z } from 'zod';
import { BRAND_FONTS } from '../../shared.js';

/** Characters of a logo data: URL (base64 of 512 KiB and its header; the 1 MiB body limit binds as well). */
const LOGO_DATA_URL_CHARS = 720_000;

const colour = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour written #rrggbb')
  .transform((s) => s.toLowerCase())
  .describe('A colour, `#rrggbb`');

const colours = z
  .strictObject({
    background: colour
      .nullable()
      .optional()
      .describe('Background of every scene, `#rrggbb`; null or absent: the composer’s own'),
    text: colour
      .nullable()
      .optional()
      .describe('Text colour, `#rrggbb`; null or absent: one that reads on the background'),
    accent: colour
      .nullable()
      .optional()
      .describe('Accent (highlights, bars, buttons), `#rrggbb`; null or absent: the composer’s own'),
  })
  .describe('Up to three colours');

const font = z
  .enum(BRAND_FONTS)
  .describe('Type style of every text, from the installed families: `sans`, `serif`, `mono` or `rounded`');
const logoOnClosing = z.boolean().describe('Whether the closing scene shows the logo');

/** PUT /v1/brand: the whole kit (the stored logo is kept when `logo` is absent). */
export const brandPutSchema = z
  .strictObject({
    colors: colours.optional().describe('Up to three colours; absent: none'),
    font: font
      .nullable()
      .optional()
      .describe('Type style (`sans`, `serif`, `mono`, `rounded`); null or absent: the composer’s own'),
    logo: z
      .string()
      .max(LOGO_DATA_URL_CHARS)
      .nullable()
      .optional()
      .describe(
        'The logo as a data: URL of a PNG, JPEG, GIF or WebP image (at most 0.5 MiB, checked like request images); ' +
          'null removes it; absent keeps the stored one',
      ),
    logo_on_closing: logoOnClosing.optional().describe('Whether the closing scene shows the logo; default true'),
  })
  .describe('A brand kit');

/**
 * The `brand` field of a create request: the organization's kit by default, `false` for none, or the kit with some
 * fields changed.
 */
export const brandRequestSchema = z
  .union([
    z.boolean().describe('`true` (the default): the organization’s kit; `false`: no brand for this video'),
    z
      .strictObject({
        colors: colours.optional().describe('Colours replacing the kit’s (null: the composer’s own)'),
        font: font.nullable().optional().describe('Type style replacing the kit’s (null: the composer’s own)'),
        logo_on_closing: logoOnClosing.optional().describe('Whether the closing scene shows the kit’s logo'),
      })
      .describe('The organization’s kit with these fields changed for this video'),
  ])
  .optional()
  .describe(
    'Extension: the organization’s brand kit (GET /v1/brand) applies to every video; `false` opts out, ' +
      'an object overrides fields',
  );

export type BrandPut = z.output<typeof brandPutSchema>;
