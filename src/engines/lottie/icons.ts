// Pictograms as Lottie shapes: each SVG element of an icon (src/storyboard/icons.ts: Lucide, read from its
// package) becomes a Lottie shape — paths through `svgpath` (arcs and shorthand curves made cubic, every
// command absolute; a library, because SVG arc conversion is easy to get subtly wrong), circles and
// ellipses as ellipses, rounded rectangles as rectangles, lines and polylines as open paths — stroked
// like Lucide draws them (width 2 on the 24 grid, round caps and joins) in one of the look's colours.
import svgpath from 'svgpath';
import { ICON_GRID, ICON_STROKE, ICONS, type IconElement } from '../../storyboard/icons.js';
import { ellipse, group, rect, stroke, type Json, type Vec } from './build.js';

const r3 = (n: number) => Math.round(n * 1000) / 1000;

type Vertex = { v: Vec; i: Vec; o: Vec };
type SubPath = { closed: boolean; points: Vertex[] };

/** An SVG path's subpaths as Lottie vertices with their tangents (relative, as Lottie wants them). */
export function subpathsOf(d: string): SubPath[] {
  const out: SubPath[] = [];
  let cur: SubPath | null = null;
  let x = 0;
  let y = 0;
  const add = (px: number, py: number, inX = px, inY = py) => {
    cur!.points.push({ v: [px, py], i: [inX - px, inY - py], o: [0, 0] });
    x = px;
    y = py;
  };
  svgpath(d)
    .abs()
    .unarc()
    .unshort()
    .iterate((seg) => {
      const [cmd, ...a] = seg as [string, ...number[]];
      switch (cmd) {
        case 'M':
          cur = { closed: false, points: [] };
          out.push(cur);
          add(a[0]!, a[1]!);
          break;
        case 'L':
          add(a[0]!, a[1]!);
          break;
        case 'H':
          add(a[0]!, y);
          break;
        case 'V':
          add(x, a[0]!);
          break;
        case 'C': {
          const last = cur!.points.at(-1)!;
          last.o = [a[0]! - x, a[1]! - y];
          add(a[4]!, a[5]!, a[2]!, a[3]!);
          break;
        }
        case 'Q': {
          // A quadratic curve as the cubic that draws it.
          const [qx, qy, ex, ey] = a as [number, number, number, number];
          const last = cur!.points.at(-1)!;
          last.o = [(2 / 3) * (qx - x), (2 / 3) * (qy - y)];
          add(ex, ey, ex + (2 / 3) * (qx - ex), ey + (2 / 3) * (qy - ey));
          break;
        }
        case 'Z': {
          const sp = cur!;
          sp.closed = true;
          // The closing vertex on the first one: the first takes its incoming tangent.
          const first = sp.points[0]!;
          const last = sp.points.at(-1)!;
          if (sp.points.length > 1 && Math.hypot(last.v[0]! - first.v[0]!, last.v[1]! - first.v[1]!) < 1e-6) {
            first.i = last.i;
            sp.points.pop();
          }
          x = first.v[0]!;
          y = first.v[1]!;
          break;
        }
      }
    });
  return out;
}

/** A Lottie path shape of vertices mapped by `at` (grid → layer coordinates) and scaled tangents. */
function pathShape(sp: SubPath, at: (p: Vec) => Vec, k: number): Json {
  return {
    ty: 'sh',
    d: 1,
    ks: {
      a: 0,
      k: {
        c: sp.closed,
        v: sp.points.map((p) => at(p.v).map(r3)),
        i: sp.points.map((p) => p.i.map((n) => r3(n * k))),
        o: sp.points.map((p) => p.o.map((n) => r3(n * k))),
      },
    },
  };
}

const num = (v: string | number | undefined) => Number(v ?? 0);

/** The Lottie shapes of one SVG element. */
function elementShapes([tag, attrs]: IconElement, at: (p: Vec) => Vec, k: number): Json[] {
  switch (tag) {
    case 'path':
      return subpathsOf(String(attrs.d ?? '')).map((sp) => pathShape(sp, at, k));
    case 'circle':
      return [ellipse(at([num(attrs.cx), num(attrs.cy)]), [2 * num(attrs.r) * k, 2 * num(attrs.r) * k])];
    case 'ellipse':
      return [ellipse(at([num(attrs.cx), num(attrs.cy)]), [2 * num(attrs.rx) * k, 2 * num(attrs.ry) * k])];
    case 'rect': {
      const w = num(attrs.width);
      const h = num(attrs.height);
      const c = at([num(attrs.x) + w / 2, num(attrs.y) + h / 2]);
      return [rect(c, [w * k, h * k], num(attrs.rx ?? attrs.ry) * k)];
    }
    case 'line':
      return [
        pathShape(
          {
            closed: false,
            points: [
              { v: [num(attrs.x1), num(attrs.y1)], i: [0, 0], o: [0, 0] },
              { v: [num(attrs.x2), num(attrs.y2)], i: [0, 0], o: [0, 0] },
            ],
          },
          at,
          k,
        ),
      ];
    case 'polyline':
    case 'polygon': {
      const n = String(attrs.points ?? '')
        .trim()
        .split(/[\s,]+/)
        .map(Number);
      const points: Vertex[] = [];
      for (let j = 0; j + 1 < n.length; j += 2) points.push({ v: [n[j]!, n[j + 1]!], i: [0, 0], o: [0, 0] });
      return [pathShape({ closed: tag === 'polygon', points }, at, k)];
    }
    default:
      return [];
  }
}

/**
 * The icon `name` as one shape group `size` px square centred on `centre`, stroked in `colour`; null for a name
 * outside the set.
 */
export function iconGroup(name: string, centre: Vec, size: number, colour: string): Json | null {
  const nodes = ICONS.get(name);
  if (!nodes) return null;
  const k = size / ICON_GRID;
  const x0 = centre[0]! - size / 2;
  const y0 = centre[1]! - size / 2;
  const at = (p: Vec): Vec => [x0 + p[0]! * k, y0 + p[1]! * k];
  const shapes = nodes.flatMap((n) => elementShapes(n, at, k));
  return group(`icon ${name}`, [...shapes, stroke(colour, ICON_STROKE * k)]);
}
