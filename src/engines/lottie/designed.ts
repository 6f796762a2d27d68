// The designed kinds (issue 43) as Lottie layers, in a scene's own time: features (pictograms in tiles),
// a timeline (times on a line) and a comparison (options as cards). Wide canvases use columns; tall ones
// stack. Every function returns layers top first.
import { ICONS } from '../../storyboard/icons.js';
import { ACROSS_WORD_SHARE, BARE_CARD_SHARE, unbreakable } from '../../storyboard/layout.js';
import type { Scene } from '../../storyboard/types.js';
import { EASE, ellipse, fill, group, rect, shapeLayer, stroke, type Json, type Transform, type Vec } from './build.js';
import { commonSize, FPS, type Box, type Composer, type TextBlock } from './compose.js';
import { iconGroup } from './icons.js';

type SceneOf<K extends Scene['kind']> = Extract<Scene, { kind: K }>;
const s = (seconds: number) => Math.round(seconds * FPS);

/** Smallest body text: a share of the unit (the short side). */
const MIN_BODY = 0.028;

/** Columns for `n` items: wide canvases use them, tall ones stack. */
function columnsFor(c: Composer, n: number): number {
  if (c.landscape) return n <= 4 ? n : Math.ceil(n / 2);
  if (c.W / c.H > 0.8) return n <= 2 ? n : n === 3 ? 3 : 2;
  return 1;
}

/**
 * The heading at the top of the safe area (its layers), and the area left below it; set in capitals when the look
 * says so, unless `upper` is false.
 */
export function headingAbove(
  c: Composer,
  heading: string | null,
  L: number,
  upper = true,
): { layers: Json[]; area: Box } {
  const { T, safe, palette } = c;
  if (!heading) return { layers: [], area: safe };
  const b = c.textBlock({
    text: c.splitEmoji(heading).text,
    role: 'headline',
    maxSize: T * 0.075,
    minSize: T * 0.035,
    maxWidth: safe.w,
    maxHeight: safe.h * 0.18,
    maxLines: 2,
    balance: true,
    colour: palette.text,
    upper,
  });
  if (!b) return { layers: [], area: safe };
  const enter = c.enterLength(L);
  const layers = c.drawLines(b, safe.x, safe.y, 0, L, (i, centre) => c.enter(centre, i * 2, 'rise', enter), 'heading');
  const gap = T * 0.05;
  return { layers, area: { x: safe.x, y: safe.y + b.height + gap, w: safe.w, h: safe.h - b.height - gap } };
}

/** Texts at one common size (the largest at which each fits its box), never below the body floor. */
function sameSize(
  c: Composer,
  texts: string[],
  o: { maxSize: number; maxWidth: number; maxHeight: number; maxLines: number; colour: string; headline?: boolean },
  align: 'center' | 'start' | 'end',
): (TextBlock | null)[] {
  const { headline, ...box } = o;
  return commonSize(c, texts, { ...box, role: headline ? 'headline' : 'body', minSize: c.T * MIN_BODY, align });
}

/** A pictogram in a round tile of the accent's tint, popping in at `t`. */
function iconTile(c: Composer, name: string | null, centre: Vec, side: number, t: number, L: number, nm: string) {
  const icon = name ? iconGroup(name, centre, side * 0.56, c.palette.accent) : null;
  if (!icon) return null;
  const ks: Transform = {
    a: centre,
    p: centre,
    s: [
      [t, 0, EASE.back],
      [t + c.enterLength(L), 100],
    ],
  };
  return shapeLayer({ ind: 0, nm, ip: 0, op: L, ks }, [
    icon,
    group('tile', [ellipse(centre, [side, side]), fill(c.palette.accent, 18)]),
  ]);
}

/**
 * A scene under its own pictogram (`icon`, a name of the set; none: the scene as drawn without): the icon's tile
 * (about a tenth of the short side, popping in with the scene's entrance) takes a square off the top of the safe
 * area, centred or at the reading start, and `draw` lays the scene out in the rest, below it.
 */
export function withIcon(
  c: Composer,
  icon: string | null | undefined,
  L: number,
  draw: () => Json[],
  centred: boolean,
): Json[] {
  if (!icon || !ICONS.has(icon)) return draw();
  const { safe } = c;
  const short = Math.min(c.W, c.H);
  const side = short * 0.11;
  const below = side + short * 0.035;
  const x = centred ? safe.x + safe.w / 2 : c.rtl ? safe.x + safe.w - side / 2 : safe.x + side / 2;
  const tile = iconTile(c, icon, [x, safe.y + side / 2], side, 0, L, 'scene icon');
  const layers = c.within({ ...safe, y: safe.y + below, h: safe.h - below }, draw);
  return tile ? [tile, ...layers] : layers;
}

// ---- Features ----------------------------------------------------------------------------------------

export function drawFeatures(c: Composer, scene: SceneOf<'features'>, L: number): Json[] {
  const { T, palette } = c;
  const { layers, area } = headingAbove(c, scene.heading, L);
  const n = scene.items.length;
  const cols = columnsFor(c, n);
  const enter = c.enterLength(L);
  const step = Math.max(2, Math.min(s(0.25), Math.round((L * 0.4) / n)));
  const t0 = scene.heading ? Math.round(enter * 0.5) : 2;
  if (cols === 1) {
    const rowH = Math.min(area.h / n, T * 0.22);
    const side = Math.min(rowH * 0.72, T * 0.15);
    const gap = T * 0.04;
    const blocks = sameSize(
      c,
      scene.items.map((it) => c.splitEmoji(it.text).text),
      { maxSize: T * 0.075, maxWidth: area.w - side - gap, maxHeight: rowH * 0.92, maxLines: 2, colour: palette.text },
      'start',
    );
    const y0 = area.y + (area.h - rowH * n) / 2;
    scene.items.forEach((item, i) => {
      const t = t0 + i * step;
      const cy = y0 + i * rowH + rowH / 2;
      const cx = c.rtl ? area.x + area.w - side / 2 : area.x + side / 2;
      const tile = iconTile(c, item.icon, [cx, cy], side, t, L, `tile ${i + 1}`);
      if (tile) layers.push(tile);
      const b = blocks[i];
      if (b) {
        const left = c.rtl ? area.x : area.x + side + gap;
        layers.push(
          ...c.drawLines(
            b,
            left,
            cy - b.height / 2,
            0,
            L,
            (_l, centre) => c.enter(centre, t, 'side', enter),
            `item ${i + 1}`,
          ),
        );
      }
    });
    return layers;
  }
  const rows = Math.ceil(n / cols);
  const gap = T * 0.04;
  const cw = (area.w - gap * (cols - 1)) / cols;
  const ch = Math.min((area.h - gap * (rows - 1)) / rows, cw * 1.25);
  const side = Math.min(ch * 0.42, cw * 0.5, T * 0.16);
  const blocks = sameSize(
    c,
    scene.items.map((it) => c.splitEmoji(it.text).text),
    { maxSize: T * 0.065, maxWidth: cw, maxHeight: ch - side - T * 0.025, maxLines: 3, colour: palette.text },
    'center',
  );
  const y0 = area.y + (area.h - (ch * rows + gap * (rows - 1))) / 2;
  scene.items.forEach((item, i) => {
    const row = Math.floor(i / cols);
    const inRow = row === rows - 1 ? n - row * cols : cols;
    const x0 = area.x + (area.w - (cw * inRow + gap * (inRow - 1))) / 2;
    const col = c.rtl ? inRow - 1 - (i % cols) : i % cols;
    const x = x0 + col * (cw + gap);
    const y = y0 + row * (ch + gap);
    const t = t0 + i * step;
    const tile = iconTile(c, item.icon, [x + cw / 2, y + side / 2], side, t, L, `tile ${i + 1}`);
    if (tile) layers.push(tile);
    const b = blocks[i];
    if (b)
      layers.push(
        ...c.drawLines(
          b,
          x,
          y + side + T * 0.025,
          0,
          L,
          (_l, centre) => c.enter(centre, t + 2, 'rise', enter),
          `item ${i + 1}`,
        ),
      );
  });
  return layers;
}

// ---- Timeline ----------------------------------------------------------------------------------------

export function drawTimeline(c: Composer, scene: SceneOf<'timeline'>, L: number): Json[] {
  const { T, palette } = c;
  const { layers, area } = headingAbove(c, scene.heading, L);
  const n = scene.items.length;
  const enter = c.enterLength(L);
  const first = scene.heading ? Math.round(enter * 0.6) : 2;
  const beat = Math.max(3, Math.floor((L - first - s(0.8)) / n));
  const dot = T * 0.032;
  const lw = Math.max(2, T * 0.006);
  const texts = scene.items.map((it) => c.splitEmoji(it.text).text);
  const wordSize = T * 0.055 * ACROSS_WORD_SHARE;
  const longestWord = Math.max(...texts.flatMap(unbreakable).map((w) => c.oneLineWidth(w, wordSize, 'body')));
  const across = c.landscape && n <= 5 && longestWord <= (area.w / n) * 0.92;
  const line = (from: Vec, to: Vec) => {
    // The line grows the way the items are read: from the right in a right-to-left row.
    const anchor = c.rtl && across ? to : from;
    return shapeLayer(
      {
        ind: 0,
        nm: 'line',
        ip: 0,
        op: L,
        ks: {
          a: anchor,
          p: anchor,
          s: [
            [first, across ? [0, 100] : [100, 0], EASE.linear],
            [first + beat * n, [100, 100]],
          ],
        },
      },
      [
        group('line', [
          rect(
            [(from[0]! + to[0]!) / 2, (from[1]! + to[1]!) / 2],
            [Math.abs(to[0]! - from[0]!) || lw, Math.abs(to[1]! - from[1]!) || lw],
            lw / 2,
          ),
          fill(palette.accent, 45),
        ]),
      ],
    );
  };
  const dotLayer = (centre: Vec, t: number, i: number) =>
    shapeLayer(
      {
        ind: 0,
        nm: `dot ${i + 1}`,
        ip: 0,
        op: L,
        ks: {
          a: centre,
          p: centre,
          s: [
            [t, 0, EASE.back],
            [t + enter, 100],
          ],
        },
      },
      [group('dot', [ellipse(centre, [dot, dot]), fill(palette.accent)])],
    );
  const times = scene.items.map((it) => it.time);
  if (across) {
    const colW = area.w / n;
    const timeBlocks = sameSize(
      c,
      times,
      {
        maxSize: T * 0.07,
        maxWidth: colW * 0.92,
        maxHeight: area.h * 0.28,
        maxLines: 2,
        colour: palette.accent,
        headline: true,
      },
      'center',
    );
    const textBlocks = sameSize(
      c,
      texts,
      { maxSize: T * 0.055, maxWidth: colW * 0.92, maxHeight: area.h * 0.5, maxLines: 4, colour: palette.text },
      'center',
    );
    // Times above the line, texts below, the whole group centred in the area (short texts leave no empty half).
    const [timeGap, textGap] = [T * 0.035, T * 0.045];
    const tallest = (blocks: (TextBlock | null)[]) => Math.max(0, ...blocks.map((b) => b?.height ?? 0));
    const [timeH, textH] = [tallest(timeBlocks), tallest(textBlocks)];
    const lineY = area.y + Math.max(0, (area.h - timeH - timeGap - textGap - textH) / 2) + timeH + timeGap;
    const xs = scene.items.map((_, i) => area.x + (c.rtl ? n - 1 - i : i) * colW + colW / 2);
    layers.push(line([Math.min(...xs), lineY], [Math.max(...xs), lineY]));
    scene.items.forEach((_, i) => {
      const t = first + i * beat;
      layers.push(dotLayer([xs[i]!, lineY], t, i));
      const tb = timeBlocks[i];
      if (tb)
        layers.push(
          ...c.drawLines(
            tb,
            xs[i]! - colW * 0.46,
            lineY - timeGap - tb.height,
            0,
            L,
            (_l, ce) => c.enter(ce, t, 'rise', enter),
            `time ${i + 1}`,
          ),
        );
      const b = textBlocks[i];
      if (b)
        layers.push(
          ...c.drawLines(
            b,
            xs[i]! - colW * 0.46,
            lineY + textGap,
            0,
            L,
            (_l, ce) => c.enter(ce, t + 2, 'rise', enter),
            `item ${i + 1}`,
          ),
        );
    });
    return layers;
  }
  const rowH = Math.min(area.h / n, T * 0.24);
  const timeW = Math.min(area.w * 0.36, T * 0.36);
  const gap = T * 0.035;
  const timeBlocks = sameSize(
    c,
    times,
    { maxSize: T * 0.07, maxWidth: timeW, maxHeight: rowH * 0.9, maxLines: 2, colour: palette.accent, headline: true },
    'end',
  );
  const textBlocks = sameSize(
    c,
    texts,
    {
      maxSize: T * 0.065,
      maxWidth: area.w - timeW - 2 * gap,
      maxHeight: rowH * 0.9,
      maxLines: 3,
      colour: palette.text,
    },
    'start',
  );
  const lineX = c.rtl ? area.x + area.w - timeW - gap : area.x + timeW + gap;
  const y0 = area.y + (area.h - rowH * n) / 2;
  layers.push(line([lineX, y0 + rowH / 2], [lineX, y0 + rowH * (n - 0.5)]));
  scene.items.forEach((_, i) => {
    const t = first + i * beat;
    const cy = y0 + i * rowH + rowH / 2;
    layers.push(dotLayer([lineX, cy], t, i));
    const tb = timeBlocks[i];
    if (tb) {
      const left = c.rtl ? lineX + gap : area.x;
      layers.push(
        ...c.drawLines(tb, left, cy - tb.height / 2, 0, L, (_l, ce) => c.enter(ce, t, 'fade', enter), `time ${i + 1}`),
      );
    }
    const b = textBlocks[i];
    if (b) {
      const left = c.rtl ? area.x : lineX + gap;
      layers.push(
        ...c.drawLines(
          b,
          left,
          cy - b.height / 2,
          0,
          L,
          (_l, ce) => c.enter(ce, t + 2, 'side', enter),
          `item ${i + 1}`,
        ),
      );
    }
  });
  return layers;
}

// ---- Comparison --------------------------------------------------------------------------------------

export function drawComparison(c: Composer, scene: SceneOf<'comparison'>, L: number): Json[] {
  const { T, palette } = c;
  const { layers, area } = headingAbove(c, scene.heading, L);
  const n = scene.options.length;
  const stacked = c.W / c.H < 0.8 && n > 2;
  const gap = T * 0.035;
  const pad = T * 0.03;
  const hasBadge = scene.badge !== null && scene.highlight !== null;
  const badgeH = hasBadge ? T * 0.06 : 0;
  const enter = c.enterLength(L);
  const step = Math.max(2, Math.min(s(0.3), Math.round((L * 0.35) / n)));
  const t0 = scene.heading ? Math.round(enter * 0.5) : 2;
  const featured = scene.options.some((o) => o.features.length > 0);
  const share = featured ? 1 : stacked ? BARE_CARD_SHARE.stacked : BARE_CARD_SHARE.columns;
  const cards: Box[] = scene.options.map((_, i) => {
    if (stacked) {
      const h = ((area.h - badgeH - gap * (n - 1)) / n) * share;
      const top = area.y + badgeH + (area.h - badgeH - n * h - gap * (n - 1)) / 2;
      return { x: area.x, y: top + i * (h + gap), w: area.w, h };
    }
    const w = (area.w - gap * (n - 1)) / n;
    const col = c.rtl ? n - 1 - i : i;
    const h = (area.h - badgeH) * share;
    return { x: area.x + col * (w + gap), y: area.y + badgeH + (area.h - badgeH - h) / 2, w, h };
  });
  const inner = (b: Box) => ({ w: b.w - 2 * pad, h: b.h - 2 * pad });
  const card0 = inner(cards[0]!);
  const nameW = stacked ? card0.w * 0.5 : card0.w;
  // Without features the name and the figure share the card.
  const headH = card0.h * (stacked ? (featured ? 0.42 : 1) : featured ? 0.16 : 0.34);
  const figH = card0.h * (stacked ? (featured ? 0.42 : 1) : featured ? 0.22 : 0.5);
  const featH = stacked ? card0.h * 0.54 : card0.h * 0.54;
  const names = sameSize(
    c,
    scene.options.map((o) => o.name),
    { maxSize: T * 0.06, maxWidth: nameW, maxHeight: headH, maxLines: 2, colour: palette.text, headline: true },
    stacked ? 'start' : 'center',
  );
  const figures = sameSize(
    c,
    scene.options.map((o) => o.figure ?? ''),
    {
      maxSize: T * 0.085,
      maxWidth: stacked ? card0.w - nameW : card0.w,
      maxHeight: figH,
      maxLines: 2,
      colour: palette.accent,
      headline: true,
    },
    stacked ? 'end' : 'center',
  );
  const featureTexts = scene.options.map((o) => o.features.join(' · '));
  const feats = sameSize(
    c,
    featureTexts,
    { maxSize: T * 0.042, maxWidth: card0.w, maxHeight: featH, maxLines: stacked ? 3 : 6, colour: palette.muted },
    stacked ? 'start' : 'center',
  );
  scene.options.forEach((o, i) => {
    const b = cards[i]!;
    const t = t0 + i * step;
    const hl = scene.highlight === i;
    const centre: Vec = [b.x + b.w / 2, b.y + b.h / 2];
    const rise: Transform = {
      a: centre,
      p: [
        [t, [centre[0]!, centre[1]! + T * 0.04], c.motion.ease],
        [t + enter, centre],
      ],
      o: [
        [t, 0],
        [t + Math.max(1, enter * 0.6), 100],
      ],
      ...(hl && {
        s: [
          [t + enter + s(0.3), [100, 100], EASE.back],
          [t + enter + s(0.75), [104, 104]],
        ],
      }),
    };
    const x = b.x + pad;
    const y = b.y + pad;
    const texts: Json[] = [];
    const nb = names[i];
    // Stacked, the name at the card's start and the figure at its end (mirrored for right-to-left text).
    const nx = stacked && c.rtl ? x + card0.w - nameW : x;
    if (nb) texts.push(...c.drawLines(nb, nx, y + (headH - nb.height) / 2, 0, L, () => rise, `name ${i + 1}`));
    const fb = figures[i];
    if (fb && o.figure) {
      const fx = stacked && !c.rtl ? x + nameW : x;
      const fy = stacked ? y + (headH - fb.height) / 2 : y + headH + T * 0.01 + (figH - fb.height) / 2;
      texts.push(...c.drawLines(fb, fx, fy, 0, L, () => rise, `figure ${i + 1}`));
    }
    const ft = feats[i];
    if (ft && o.features.length) {
      const fy = stacked ? y + headH + T * 0.015 : y + headH + figH + T * 0.03;
      texts.push(...c.drawLines(ft, x, fy, 0, L, () => rise, `features ${i + 1}`));
    }
    layers.push(...texts);
    layers.push(
      shapeLayer({ ind: 0, nm: `card ${i + 1}`, ip: 0, op: L, ks: rise }, [
        group('card', [
          rect(centre, [b.w, b.h], T * 0.025),
          ...(hl ? [stroke(palette.accent, Math.max(2, T * 0.006))] : []),
          fill(palette.surface),
        ]),
      ]),
    );
    if (hl && scene.badge) {
      const badge = c.textBlock({
        text: scene.badge,
        role: 'headline',
        maxSize: T * 0.035,
        minSize: T * MIN_BODY,
        maxWidth: b.w * 0.9,
        maxHeight: badgeH * 0.8,
        maxLines: 1,
        colour: c.onColour(palette.accent),
        align: 'center',
      });
      if (badge) {
        const bw = c.blockWidth(badge) + T * 0.04;
        const bc: Vec = [centre[0]!, b.y - badgeH / 2 - T * 0.004];
        const at = t + enter + s(0.3);
        const pop: Transform = {
          a: bc,
          p: bc,
          s: [
            [at, 0, EASE.back],
            [at + enter, 100],
          ],
        };
        layers.unshift(
          ...c.drawLines(badge, bc[0]! - b.w * 0.45, bc[1]! - badge.height / 2, 0, L, () => pop, 'badge'),
          shapeLayer({ ind: 0, nm: 'badge pill', ip: 0, op: L, ks: pop }, [
            group('pill', [rect(bc, [bw, badgeH * 0.8], badgeH * 0.4), fill(palette.accent)]),
          ]),
        );
      }
    }
  });
  return layers;
}
