// How a kit becomes a generation's brand (src/brand/kits.ts) and a look (src/storyboard/look.ts): the
// request's overrides win field by field, `false` opts out, nothing set means nothing applied; the
// background sets the theme, text and accent are used as given, an unset text colour stays readable.
import { describe, expect, it } from 'vitest';
import { brandSnapshot, textContrast } from '../../src/brand/kits.js';
import type { BrandKit } from '../../src/db/brandKits.js';
import { brandLook, contrastRatio, lookFor } from '../../src/storyboard/look.js';

const kit: BrandKit = {
  colors: { background: '#0b1f3a', text: '#ffffff', accent: '#ff7a1a' },
  font: 'serif',
  logo: { key: 'brand/org_1/logo-abc.png', mediaType: 'image/png', bytes: 1200, width: 160, height: 80 },
  logo_on_closing: true,
  updated_at: '2026-11-26T04:00:00.000Z',
};

describe('the brand a generation applies', () => {
  it('is the kit by default, with the logo as the asset brand-logo.<ext>', () => {
    expect(brandSnapshot(kit, undefined)).toEqual({
      colors: kit.colors,
      font: 'serif',
      logo: {
        name: 'brand-logo.png',
        kind: 'image',
        mediaType: 'image/png',
        bytes: 1200,
        width: 160,
        height: 80,
        durationSeconds: null,
      },
      logo_on_closing: true,
    });
    expect(brandSnapshot(kit, true)).toEqual(brandSnapshot(kit, undefined));
  });

  it('takes the request’s overrides field by field; null gives a field back to the composer', () => {
    const over = brandSnapshot(kit, {
      colors: { background: '#000000', accent: null },
      font: null,
      logo_on_closing: false,
    })!;
    expect(over.colors).toEqual({ background: '#000000', text: '#ffffff', accent: null });
    expect(over.font).toBeNull();
    expect(over.logo_on_closing).toBe(false);
    expect(over.logo?.name).toBe('brand-logo.png');
  });

  it('is null for brand:false, and absent when there is nothing to apply', () => {
    expect(brandSnapshot(kit, false)).toBeNull();
    expect(brandSnapshot(null, undefined)).toBeUndefined();
    expect(brandSnapshot(null, {})).toBeUndefined();
    expect(
      brandSnapshot(
        { ...kit, colors: { background: null, text: null, accent: null }, font: null, logo: null },
        undefined,
      ),
    ).toBeUndefined();
    expect(brandSnapshot(null, { font: 'mono' })).toMatchObject({
      font: 'mono',
      logo: null,
      colors: { background: null },
    });
  });

  it('reports the text/background contrast when both are set', () => {
    expect(textContrast({ background: '#ffffff', text: '#000000', accent: null })).toBe(21);
    expect(textContrast({ background: '#ffffff', text: '#aaaaaa', accent: null })).toBe(2.32);
    expect(textContrast({ background: '#ffffff', text: null, accent: null })).toBeNull();
  });
});

describe('a look in the brand', () => {
  const dark = lookFor('A calm video about sleep', 0); // the preset 'midnight': dark, sans
  it('takes the background, its theme, the exact text and accent and the type style', () => {
    const look = brandLook(dark, {
      colors: { background: '#f2c230', text: '#1a1a1a', accent: '#1f4fd8' },
      font: 'serif',
    });
    expect(look.theme).toBe('light');
    expect(look.font).toBe('serif');
    expect(look.palette).toMatchObject({ background: '#f2c230', text: '#1a1a1a', accent: '#1f4fd8' });
    expect(look.palette.surface).not.toBe(dark.palette.surface);
  });
  it('keeps text readable when the kit sets only a background', () => {
    const look = brandLook(dark, { colors: { background: '#ffffff', text: null, accent: null }, font: null });
    expect(look.font).toBe(dark.font);
    expect(contrastRatio(look.palette.text, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(look.palette.accent, '#ffffff')).toBeGreaterThanOrEqual(3);
  });
  it('changes nothing but the accents when only the accent is set: the second a tint of the kit’s (issue 43)', () => {
    const look = brandLook(dark, { colors: { background: null, text: null, accent: '#ff0000' }, font: null });
    expect(look).toEqual({
      ...dark,
      palette: { ...dark.palette, accent: '#ff0000', accent2: look.palette.accent2 },
    });
    // Between the kit's accent and the background: never the preset's second accent.
    expect(look.palette.accent2).not.toBe(dark.palette.accent2);
    const red = parseInt(look.palette.accent2.slice(1, 3), 16);
    expect(red).toBeGreaterThan(parseInt(dark.palette.background.slice(1, 3), 16));
  });
});
