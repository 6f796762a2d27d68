// Brand kits (extension): an organization's logo, colours and type style, applied to every one of its
// generations unless a request opts out (`brand: false`) or overrides fields. The API and the
// dashboard set kits through here; a generation takes a snapshot of its kit when it is created (stored
// with its request, the logo copied into its assets), so its render never changes with the kit.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EMPTY_BRAND_KIT, getBrandKit, putBrandKit, type BrandKit, type StoredLogo } from '../db/brandKits.js';
import { releaseMediaBytes, reserveMediaBytes } from '../db/mediaUsage.js';
import type { Db } from '../db/pool.js';
import type { Config } from '../config.js';
import { checkImage } from '../media/requestMedia.js';
import { getToFile, putBytes } from '../media/storageFiles.js';
import { brandLogoName, type BrandColours, type BrandFont, type BrandSnapshot, type MediaAsset } from '../shared.js';
import type { Storage } from '../storage/index.js';
import { brandLogoKey, mediaAssetKey } from '../storage/keys.js';
import { contrastRatio } from '../storyboard/look.js';

/** Bytes of a logo: a logo is small, and the API's JSON body (1 MiB, base64) must hold it. */
export const LOGO_MAX_BYTES = 512 * 1024;
/** WCAG AA contrast of body text on its background. */
export const WCAG_AA_BODY = 4.5;

/**
 * What a request asks of its organization's kit: absent or true, the kit; false, none; an object, the kit with these
 * fields.
 */
export type BrandChoice =
  boolean | { colors?: Partial<BrandColours>; font?: BrandFont | null; logo_on_closing?: boolean };

/**
 * Checks logo bytes like a request image (type from the bytes, size, pixels) and stores them; throws `refuse(reason)`.
 */
export async function storeLogo(
  storage: Storage,
  organizationId: string,
  bytes: Buffer,
  refuse: (reason: string) => Error,
): Promise<StoredLogo> {
  const image = checkImage(bytes, refuse, 'the file', LOGO_MAX_BYTES);
  // Named by content: a generation's snapshot copies the logo it saw, and a new logo never overwrites it first.
  const key = brandLogoKey(organizationId, logoDigest(bytes), image.extension);
  await putBytes(storage, key, bytes, image.mediaType);
  return { key, mediaType: image.mediaType, bytes: bytes.length, width: image.width, height: image.height };
}

/** A new kit: `logo` bytes to check and store, null to remove the logo, undefined to keep the one stored. */
export type BrandKitInput = {
  colors: BrandColours;
  font: BrandFont | null;
  logo: Buffer | null | undefined;
  logo_on_closing: boolean;
};

/**
 * Replaces the organization's kit (API PUT and the dashboard's Brand page); a bad logo throws
 * `refuse(reason)`. A new logo counts against the organization's media quota; the logo it replaces
 * (or removes) is deleted from storage and given back: generations took their own copy of it when
 * they were created (storeGenerationLogo), so nothing reads it any more.
 */
export async function replaceBrandKit(
  { db, storage, config }: { db: Db; storage: Storage; config: Pick<Config, 'mediaQuotaBytesPerOrganization'> },
  organizationId: string,
  input: BrandKitInput,
  refuse: (reason: string) => Error,
): Promise<BrandKit> {
  const previous = (await getBrandKit(db, organizationId))?.logo ?? null;
  let logo = previous;
  if (input.logo === null) logo = null;
  else if (input.logo) {
    checkImage(input.logo, refuse, 'the file', LOGO_MAX_BYTES);
    const same = previous?.key === logoKeyOf(organizationId, input.logo);
    if (!same)
      await reserveMediaBytes(db, organizationId, input.logo.length, config.mediaQuotaBytesPerOrganization, 'logo');
    try {
      logo = await storeLogo(storage, organizationId, input.logo, refuse);
    } catch (err) {
      if (!same) await releaseMediaBytes(db, organizationId, input.logo.length);
      throw err;
    }
  }
  const kit = await putBrandKit(db, organizationId, {
    colors: input.colors,
    font: input.font,
    logo,
    logo_on_closing: input.logo_on_closing,
  });
  if (previous && previous.key !== logo?.key) {
    await storage.delete(previous.key);
    await releaseMediaBytes(db, organizationId, previous.bytes);
  }
  return kit;
}

/** Where a logo's bytes are stored: named by content, so the same logo given again is the same object. */
function logoKeyOf(organizationId: string, bytes: Buffer): string {
  const image = checkImage(bytes, () => new Error('unreachable: checked before'), 'the file', LOGO_MAX_BYTES);
  return brandLogoKey(organizationId, logoDigest(bytes), image.extension);
}

const logoDigest = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex').slice(0, 24);

/** The text-on-background contrast of the colours, when both are set. */
export function textContrast(colors: BrandColours): number | null {
  return colors.text && colors.background
    ? Math.round(contrastRatio(colors.text, colors.background) * 100) / 100
    : null;
}

/**
 * The brand a new generation applies: its organization's kit with the request's overrides. Null
 * for `brand: false`; undefined when there is nothing to apply (no kit, no overrides).
 */
export function brandSnapshot(kit: BrandKit | null, choice: BrandChoice | undefined): BrandSnapshot | null | undefined {
  if (choice === false) return null;
  if (!kit && (choice === undefined || choice === true)) return undefined;
  const base = kit ?? EMPTY_BRAND_KIT;
  const over = typeof choice === 'object' ? choice : {};
  const snapshot: BrandSnapshot = {
    colors: { ...base.colors, ...over.colors },
    font: over.font !== undefined ? over.font : base.font,
    logo: base.logo ? logoAsset(base.logo) : null,
    logo_on_closing: over.logo_on_closing ?? base.logo_on_closing,
  };
  const { background, text, accent } = snapshot.colors;
  return background || text || accent || snapshot.font || snapshot.logo ? snapshot : undefined;
}

/** The kit's logo as the generation's asset `brand-logo.<ext>`. */
function logoAsset(logo: StoredLogo): MediaAsset {
  const extension = path.extname(logo.key).slice(1);
  return {
    name: brandLogoName(extension),
    kind: 'image',
    mediaType: logo.mediaType,
    bytes: logo.bytes,
    width: logo.width,
    height: logo.height,
    durationSeconds: null,
  };
}

/** Copies the kit's logo into the generation's assets, where its render finds it by its asset name. */
export async function storeGenerationLogo(storage: Storage, generationId: string, logo: StoredLogo): Promise<void> {
  const tmp = path.join(os.tmpdir(), `brand-logo-${crypto.randomBytes(8).toString('hex')}`);
  try {
    await getToFile(storage, logo.key, tmp);
    await storage.put(mediaAssetKey(generationId, logoAsset(logo).name), tmp, logo.mediaType);
  } finally {
    await fs.promises.rm(tmp, { force: true });
  }
}

/** A kit as the API shows it (GET and PUT /v1/brand): the logo as a signed, expiring URL. */
export async function brandView(storage: Storage, kit: BrandKit | null) {
  const k = kit ?? EMPTY_BRAND_KIT;
  const contrast = textContrast(k.colors);
  return {
    object: 'brand_kit',
    colors: k.colors,
    font: k.font,
    logo: k.logo
      ? {
          ...(await storage.url(k.logo.key)),
          media_type: k.logo.mediaType,
          bytes: k.logo.bytes,
          width: k.logo.width,
          height: k.logo.height,
        }
      : null,
    logo_on_closing: k.logo_on_closing,
    // Body text on the background: WCAG AA asks for 4.5:1. A kit below it is kept (the owner decides) but flagged.
    contrast: { text_on_background: contrast, meets_wcag_aa: contrast === null ? null : contrast >= WCAG_AA_BODY },
    updated_at: k.updated_at,
  };
}
