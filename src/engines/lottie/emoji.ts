// Emoji as PNG images, read from the system's Noto Color Emoji font. ThorVG cannot draw colour
// bitmap fonts, so the offline composer keeps emoji out of text layers and embeds each one as an image
// asset. The font keeps one PNG per glyph (CBDT table, located through CBLC); `cmap` maps code points
// to glyphs and GSUB ligatures map sequences (skin tones, ZWJ families, flags, keycaps) to one glyph.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

const CANDIDATES = ['/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf', '/usr/share/fonts/noto/NotoColorEmoji.ttf'];

export type EmojiImage = { png: Buffer; width: number; height: number };

type Ligature = { components: number[]; glyph: number };

class EmojiFont {
  private readonly tables = new Map<string, number>();
  private readonly cmap = new Map<number, number>();
  /** First glyph of a sequence → its ligatures, longest first. */
  private readonly ligatures = new Map<number, Ligature[]>();
  private readonly strikes: { first: number; last: number; format: number; imageFormat: number; subtable: number; dataOffset: number }[] = [];

  constructor(private readonly data: Buffer) {
    const n = data.readUInt16BE(4);
    for (let i = 0; i < n; i++) this.tables.set(data.toString('latin1', 12 + 16 * i, 16 + 16 * i), data.readUInt32BE(20 + 16 * i));
    this.readCmap();
    this.readLigatures();
    this.readStrike();
  }

  private table(tag: string): number {
    const at = this.tables.get(tag);
    if (at === undefined) throw new Error(`emoji font has no ${tag} table`);
    return at;
  }

  private readCmap() {
    const d = this.data;
    const cmap = this.table('cmap');
    for (let i = 0; i < d.readUInt16BE(cmap + 2); i++) {
      const sub = cmap + d.readUInt32BE(cmap + 8 + 8 * i);
      if (d.readUInt16BE(sub) !== 12) continue;
      const groups = d.readUInt32BE(sub + 12);
      for (let g = 0; g < groups; g++) {
        const start = d.readUInt32BE(sub + 16 + 12 * g), end = d.readUInt32BE(sub + 20 + 12 * g), glyph = d.readUInt32BE(sub + 24 + 12 * g);
        for (let cp = start; cp <= end; cp++) this.cmap.set(cp, glyph + cp - start);
      }
      return;
    }
  }

  private coverage(at: number): number[] {
    const d = this.data;
    const out: number[] = [];
    if (d.readUInt16BE(at) === 1) {
      for (let i = 0; i < d.readUInt16BE(at + 2); i++) out.push(d.readUInt16BE(at + 4 + 2 * i));
    } else {
      for (let i = 0; i < d.readUInt16BE(at + 2); i++) {
        const r = at + 4 + 6 * i;
        for (let g = d.readUInt16BE(r); g <= d.readUInt16BE(r + 2); g++) out.push(g);
      }
    }
    return out;
  }

  /** Every ligature substitution (GSUB lookup type 4, directly or through extension lookups). */
  private readLigatures() {
    const d = this.data;
    const gsub = this.table('GSUB');
    const lookups = gsub + d.readUInt16BE(gsub + 8);
    for (let l = 0; l < d.readUInt16BE(lookups); l++) {
      const lookup = lookups + d.readUInt16BE(lookups + 2 + 2 * l);
      let type = d.readUInt16BE(lookup);
      for (let s = 0; s < d.readUInt16BE(lookup + 4); s++) {
        let sub = lookup + d.readUInt16BE(lookup + 6 + 2 * s);
        if (type === 7) {
          type = d.readUInt16BE(sub + 2);
          sub += d.readUInt32BE(sub + 4);
        }
        if (type !== 4) continue;
        const firsts = this.coverage(sub + d.readUInt16BE(sub + 2));
        firsts.forEach((first, i) => {
          const set = sub + d.readUInt16BE(sub + 6 + 2 * i);
          for (let k = 0; k < d.readUInt16BE(set); k++) {
            const lig = set + d.readUInt16BE(set + 2 + 2 * k);
            const count = d.readUInt16BE(lig + 2);
            const components = [first];
            for (let c = 1; c < count; c++) components.push(d.readUInt16BE(lig + 2 + 2 * c));
            const list = this.ligatures.get(first) ?? [];
            list.push({ components, glyph: d.readUInt16BE(lig) });
            this.ligatures.set(first, list);
          }
        });
      }
    }
    for (const list of this.ligatures.values()) list.sort((a, b) => b.components.length - a.components.length);
  }

  /** The largest bitmap strike's index subtables. */
  private readStrike() {
    const d = this.data;
    const cblc = this.table('CBLC');
    let best = -1;
    let bestPpem = -1;
    for (let i = 0; i < d.readUInt32BE(cblc + 4); i++) {
      const ppem = d.readUInt8(cblc + 8 + 48 * i + 44);
      if (ppem > bestPpem) [best, bestPpem] = [i, ppem];
    }
    if (best < 0) return;
    const size = cblc + 8 + 48 * best;
    const array = cblc + d.readUInt32BE(size);
    for (let i = 0; i < d.readUInt32BE(size + 8); i++) {
      const entry = array + 8 * i;
      const subtable = array + d.readUInt32BE(entry + 4);
      this.strikes.push({
        first: d.readUInt16BE(entry),
        last: d.readUInt16BE(entry + 2),
        format: d.readUInt16BE(subtable),
        imageFormat: d.readUInt16BE(subtable + 2),
        dataOffset: d.readUInt32BE(subtable + 4),
        subtable,
      });
    }
  }

  /** Glyph of a sequence of code points after ligature substitution (one glyph), or null. */
  glyphOf(sequence: string): number | null {
    // Variation selectors are not part of the font's sequences; ZWJ and tags are.
    const glyphs = [...sequence].filter((c) => c !== '\uFE0F' && c !== '\uFE0E').map((c) => this.cmap.get(c.codePointAt(0)!));
    if (glyphs.length === 0 || glyphs.some((g) => g === undefined)) {
      const base = this.cmap.get(sequence.codePointAt(0)!);
      return base ?? null;
    }
    const ids = glyphs as number[];
    for (const lig of this.ligatures.get(ids[0]!) ?? []) {
      if (lig.components.length <= ids.length && lig.components.every((g, i) => ids[i] === g)) return lig.glyph;
    }
    return ids[0]!;
  }

  /** The PNG of a glyph (CBDT image formats 17, 18 and 19). */
  image(glyph: number): EmojiImage | null {
    const d = this.data;
    const cbdt = this.table('CBDT');
    const strike = this.strikes.find((s) => glyph >= s.first && glyph <= s.last);
    if (!strike) return null;
    const k = glyph - strike.first;
    let offset: number;
    if (strike.format === 1) offset = d.readUInt32BE(strike.subtable + 8 + 4 * k);
    else if (strike.format === 3) offset = d.readUInt16BE(strike.subtable + 8 + 2 * k);
    else return null;
    let at = cbdt + strike.dataOffset + offset;
    let width: number, height: number;
    if (strike.imageFormat === 17) {
      height = d.readUInt8(at);
      width = d.readUInt8(at + 1);
      at += 5;
    } else if (strike.imageFormat === 18) {
      height = d.readUInt8(at);
      width = d.readUInt8(at + 1);
      at += 8;
    } else return null;
    const length = d.readUInt32BE(at);
    const png = d.subarray(at + 4, at + 4 + length);
    if (png.readUInt32BE(0) !== 0x89504e47) return null;
    return { png: Buffer.from(png), width, height };
  }
}

let font: EmojiFont | null | undefined;

export function emojiFontFile(): string | undefined {
  const known = CANDIDATES.find((f) => fs.existsSync(f));
  if (known) return known;
  try {
    const file = execFileSync('fc-match', ['-f', '%{file}', 'Noto Color Emoji'], { encoding: 'utf8', timeout: 5000 }).trim();
    return /emoji/i.test(file) ? file : undefined;
  } catch {
    return undefined;
  }
}

function emojiFont(): EmojiFont | null {
  if (font === undefined) {
    const file = emojiFontFile();
    try {
      font = file ? new EmojiFont(fs.readFileSync(file)) : null;
    } catch {
      font = null;
    }
  }
  return font;
}

const cache = new Map<string, EmojiImage | null>();

/** The picture of one emoji (as `emojiIn` finds them), or null when there is no colour emoji font. */
export function emojiImage(emoji: string): EmojiImage | null {
  if (!cache.has(emoji)) {
    const f = emojiFont();
    const glyph = f?.glyphOf(emoji) ?? null;
    cache.set(emoji, glyph === null ? null : f!.image(glyph));
  }
  return cache.get(emoji)!;
}
