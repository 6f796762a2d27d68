// Validation of a Lottie animation: the Lottie spec's JSON schema (errors carry JSON paths), then
// our own checks of what the renderer supports and what the limits allow. Expressions are rejected:
// Lottie players evaluate them as code.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import lottieSpecs from '@lottie-animation-community/lottie-specs';
import Ajv2020 from 'ajv/dist/2020.js';
import {
  durationFinding,
  MAX_CANVAS_SIDE,
  MAX_FPS,
  MIN_FPS,
  requestedDurationFinding,
  sourceSizeFinding,
} from '../limits.js';
import type { Finding, ValidationTarget } from '../types.js';

/** Layer types ThorVG renders: precomposition, solid, image, null, shape, text. */
const SUPPORTED_LAYER_TYPES: Record<number, string> = {
  0: 'precomposition',
  1: 'solid',
  2: 'image',
  3: 'null',
  4: 'shape',
  5: 'text',
};
const MAX_FINDINGS = 50;

export type LottieAnimation = {
  fr: number;
  ip: number;
  op: number;
  w: number;
  h: number;
  layers: Record<string, unknown>[];
  assets?: Record<string, unknown>[];
  fonts?: { list?: { fName?: string; fFamily?: string; fStyle?: string }[] };
};

let specValidator:
  { validate(data: object, showWarnings?: boolean): { type: string; message: string; path: string }[] } | undefined;

function spec() {
  if (!specValidator) {
    const require = createRequire(import.meta.url);
    const schema = JSON.parse(
      fs.readFileSync(require.resolve('@lottie-animation-community/lottie-specs/src/data/lottie.schema.json'), 'utf8'),
    );
    const Ajv = (Ajv2020 as unknown as { default?: unknown }).default ?? Ajv2020;
    specValidator = new lottieSpecs.LottieValidator(Ajv, schema);
  }
  return specValidator;
}

export async function validateLottie(source: string, target: ValidationTarget): Promise<Finding[]> {
  const tooLarge = sourceSizeFinding(source);
  if (tooLarge) return [tooLarge];
  let data: unknown;
  try {
    data = JSON.parse(source);
  } catch (err) {
    return [
      {
        code: 'invalid_json',
        severity: 'error',
        message: `Not valid JSON: ${(err as Error).message}`,
        fix_hint: 'Return one Lottie JSON object, with no comments or trailing commas.',
      },
    ];
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return [{ code: 'not_lottie', severity: 'error', location: '', message: 'A Lottie animation is a JSON object' }];
  }

  try {
    return checkAnimation(data as LottieAnimation, target);
  } catch (err) {
    // E.g. nesting deep enough to exhaust the stack: not a Lottie anyone should render.
    return [
      {
        code: 'unprocessable',
        severity: 'error',
        message: `The animation could not be checked: ${(err as Error).message}`,
      },
    ];
  }
}

function checkAnimation(animation: LottieAnimation, target: ValidationTarget): Finding[] {
  const findings: Finding[] = [...findExpressions(animation)];
  const seen = new Set<string>();
  for (const e of spec().validate(animation, false)) {
    const location = e.path || '/';
    if (seen.has(`${location} ${e.message}`)) continue; // the schema's alternatives repeat some errors
    seen.add(`${location} ${e.message}`);
    findings.push({ code: 'schema_violation', severity: 'error', location, message: e.message });
  }
  findings.push(...checkTiming(animation, target), ...checkSize(animation, target), ...checkLayers(animation, target));
  return findings.slice(0, MAX_FINDINGS);
}

/** Animated properties carry an expression as a string `x` next to `k`/`a`. */
function findExpressions(node: unknown, path = ''): Finding[] {
  if (typeof node !== 'object' || node === null) return [];
  if (Array.isArray(node)) return node.flatMap((v, i) => findExpressions(v, `${path}/${i}`));
  const obj = node as Record<string, unknown>;
  const out: Finding[] = [];
  if (typeof obj.x === 'string' && ('k' in obj || 'a' in obj)) {
    out.push({
      code: 'expression_not_supported',
      severity: 'error',
      location: `${path}/x`,
      message: 'Lottie expressions (JavaScript in the animation) are not supported',
      fix_hint: 'Remove the "x" expression and animate the property with keyframes ("a": 1, "k": [...]).',
    });
  }
  for (const [k, v] of Object.entries(obj)) if (typeof v === 'object') out.push(...findExpressions(v, `${path}/${k}`));
  return out;
}

function checkTiming(a: LottieAnimation, target: ValidationTarget): Finding[] {
  const out: Finding[] = [];
  if (typeof a.fr === 'number' && (a.fr < MIN_FPS || a.fr > MAX_FPS)) {
    out.push({
      code: 'fps_out_of_range',
      severity: 'error',
      location: '/fr',
      message: `Frame rate ${a.fr} is outside ${MIN_FPS}–${MAX_FPS}`,
      fix_hint: 'Use "fr": 30.',
    });
  }
  if (typeof a.ip === 'number' && typeof a.op === 'number' && a.fr > 0) {
    if (!(a.op > a.ip)) {
      out.push({
        code: 'invalid_frame_range',
        severity: 'error',
        location: '/op',
        message: `Out point ${a.op} must be after in point ${a.ip}`,
        fix_hint: 'Set "op" to "ip" plus the number of frames.',
      });
    } else {
      const seconds = (a.op - a.ip) / a.fr;
      const tooLong = durationFinding(seconds, Math.min(a.fr, MAX_FPS), '/op');
      if (tooLong) out.push(tooLong);
      // The length asked for (duration_seconds, or stated in the prompt): within the tolerance.
      const wrong = requestedDurationFinding(seconds, target.durationSeconds ?? null, '/op');
      if (wrong)
        out.push({
          ...wrong,
          fix_hint:
            `Set "op" to "ip" + ${Math.round((target.durationSeconds ?? 0) * a.fr)} ` +
            `(${target.durationSeconds} s at ${a.fr} fps).`,
        });
    }
  }
  return out;
}

function checkSize(a: LottieAnimation, canvas: { width: number; height: number }): Finding[] {
  if (typeof a.w !== 'number' || typeof a.h !== 'number') return []; // the schema reports it
  if (!(a.w >= 1 && a.h >= 1 && a.w <= MAX_CANVAS_SIDE && a.h <= MAX_CANVAS_SIDE)) {
    return [
      {
        code: 'invalid_size',
        severity: 'error',
        location: '/w',
        message: `Size ${a.w}x${a.h} is outside 1–${MAX_CANVAS_SIDE} pixels per side`,
      },
    ];
  }
  if (Math.abs(a.w / a.h - canvas.width / canvas.height) > 0.01 * (canvas.width / canvas.height)) {
    return [
      {
        code: 'aspect_ratio_mismatch',
        severity: 'warning',
        location: '/w',
        message:
          `The animation is ${a.w}x${a.h} but the video is ${canvas.width}x${canvas.height}: ` +
          `it is scaled to fit, with bands around it`,
        fix_hint: `Set "w": ${canvas.width}, "h": ${canvas.height} and lay the animation out for that size.`,
      },
    ];
  }
  return [];
}

/** `assets/<name>`: one file name of the request's media, no directories (nor `..`). */
const ASSET_REF = /^(?:\.\/)?assets\/([A-Za-z0-9][A-Za-z0-9._-]*)$/;

/** Layer types, image assets and precomposition references, in the root and in every precomposition. */
function checkLayers(a: LottieAnimation, target: ValidationTarget): Finding[] {
  const out: Finding[] = [];
  const assets = Array.isArray(a.assets) ? a.assets : [];
  const assetIds = new Set(assets.map((as) => as.id));
  if (Array.isArray(a.layers) && a.layers.length === 0) {
    out.push({
      code: 'no_layers',
      severity: 'error',
      location: '/layers',
      message: 'The animation has no layers, so every frame is empty',
    });
  }
  const visit = (layers: unknown, path: string) => {
    if (!Array.isArray(layers)) return;
    layers.forEach((layer: Record<string, unknown>, i) => {
      const at = `${path}/${i}`;
      if (typeof layer !== 'object' || layer === null) return;
      if (typeof layer.ty !== 'number' || !(layer.ty in SUPPORTED_LAYER_TYPES)) {
        out.push({
          code: 'unsupported_layer_type',
          severity: 'error',
          location: `${at}/ty`,
          message: `Layer type ${JSON.stringify(layer.ty)} is not supported`,
          fix_hint: `Use one of: ${Object.entries(SUPPORTED_LAYER_TYPES)
            .map(([ty, name]) => `${ty} (${name})`)
            .join(', ')}.`,
        });
      }
      if ((layer.ty === 0 || layer.ty === 2) && !assetIds.has(layer.refId)) {
        out.push({
          code: 'missing_asset',
          severity: 'error',
          location: `${at}/refId`,
          message: `Layer refers to asset ${JSON.stringify(layer.refId)}, which "assets" does not define`,
        });
      }
      if (layer.ddd === 1) {
        out.push({
          code: '3d_layer_ignored',
          severity: 'warning',
          location: `${at}/ddd`,
          message: '3D layers are rendered flat',
        });
      }
    });
  };
  visit(a.layers, '/layers');
  const media = new Set((target.assets ?? []).filter((m) => m.kind === 'image').map((m) => m.name));
  assets.forEach((asset, i) => {
    visit(asset.layers, `/assets/${i}/layers`);
    // Image assets are embedded (e: 1, data URL) or the requester's own images (`assets/<name>`):
    // nothing is fetched at render time.
    if (typeof asset.p !== 'string' || asset.layers) return;
    const where = `${typeof asset.u === 'string' ? asset.u : ''}${asset.p}`;
    if (asset.p.startsWith('data:')) return;
    const name = ASSET_REF.exec(where)?.[1];
    if (name !== undefined && media.has(name)) return;
    const names = [...media];
    out.push(
      name !== undefined
        ? {
            code: 'unknown_asset',
            severity: 'error',
            location: `/assets/${i}/p`,
            message: `Image asset ${JSON.stringify(where)} names no image of this request`,
            fix_hint: names.length
              ? `Use one of: ${names.map((n) => `"u": "assets/", "p": "${n}"`).join('; ')}.`
              : 'This request has no images: draw with shape layers instead.',
          }
        : {
            code: 'external_asset',
            severity: 'error',
            location: `/assets/${i}/p`,
            message: `Image asset ${JSON.stringify(where)} is not embedded and cannot be loaded`,
            fix_hint: names.length
              ? `Refer to the request's images as "u": "assets/", "p": "<name>" (${names.join(', ')}), ` +
                `embed a data URL, or draw with shape layers.`
              : 'Embed images as data URLs ("e": 1, "p": "data:image/png;base64,...") or draw them with shape layers.',
          },
    );
  });
  return out;
}
