// Turns an LLM-written composition into the document the producer renders offline at the requested
// size: CDN scripts point at local copies, the root composition gets the canvas size, compositions
// without GSAP timelines get `data-no-timeline` (otherwise the producer polls 45 s for a timeline).
// Problems found on the way are returned as findings.
import type { Finding } from '../types.js';
import {
  findRootComposition,
  getAttr,
  inlineScripts,
  replaceTags,
  scanStartTags,
  setAttr,
  type StartTag,
} from './html.js';
import { localCopyFor, VENDOR_DIR, type VendorFile } from './vendor.js';

export type PreparedComposition = { html: string; vendorFiles: VendorFile[]; findings: Finding[] };

const isRemote = (url: string | undefined) => !!url && /^(https?:)?\/\//i.test(url.trim());
const snippet = (raw: string) => (raw.length > 120 ? `${raw.slice(0, 117)}...` : raw);

export function prepareComposition(source: string, canvas: { width: number; height: number }): PreparedComposition {
  const tags = scanStartTags(source);
  const edits = new Map<StartTag, string | null>();
  const findings: Finding[] = [];
  const vendorFiles = new Map<string, VendorFile>();

  for (const tag of tags) {
    if (tag.name === 'script') {
      const src = getAttr(tag.raw, 'src');
      if (!isRemote(src)) continue;
      const local = localCopyFor(src!.startsWith('//') ? `https:${src}` : src!);
      if (local) {
        vendorFiles.set(local.file, local);
        edits.set(tag, setAttr(tag.raw, 'src', `${VENDOR_DIR}/${local.file}`));
      } else {
        findings.push({
          code: 'remote_script',
          severity: 'error',
          location: snippet(tag.raw),
          message: `Remote script ${src} cannot load: videos render without network access`,
          fix_hint:
            'Use GSAP (any plugin) or lottie-web from their usual CDN URLs, which are served locally, ' +
            'or inline the code.',
        });
      }
    } else if (tag.name === 'link' && isRemote(getAttr(tag.raw, 'href'))) {
      // Remote stylesheets (typically Google Fonts) would stall on the network; common font families are bundled.
      edits.set(tag, null);
      if (/stylesheet/i.test(getAttr(tag.raw, 'rel') ?? '')) {
        findings.push({
          code: 'remote_stylesheet_removed',
          severity: 'warning',
          location: snippet(tag.raw),
          message: `Remote stylesheet ${getAttr(tag.raw, 'href')} was removed: videos render without network access`,
          fix_hint:
            'Put CSS in a <style> element. Fonts such as Inter, Montserrat, Oswald, Nunito, ' +
            'Outfit are available without loading them.',
        });
      }
    } else if (['img', 'video', 'audio', 'source'].includes(tag.name) && isRemote(getAttr(tag.raw, 'src'))) {
      findings.push({
        code: 'remote_asset',
        severity: 'warning',
        location: snippet(tag.raw),
        message: `Remote media ${getAttr(tag.raw, 'src')} will not load: videos render without network access`,
        fix_hint: 'Draw the visual with HTML, CSS, SVG or canvas instead, or embed a small image as a data: URL.',
      });
    }
  }

  const root = findRootComposition(tags);
  if (root) edits.set(root, prepareRoot(root, source, canvas, findings));

  return { html: replaceTags(source, edits), vendorFiles: [...vendorFiles.values()], findings };
}

function prepareRoot(
  root: StartTag,
  source: string,
  canvas: { width: number; height: number },
  findings: Finding[],
): string {
  let raw = root.raw;
  const declared = { width: getAttr(raw, 'data-width'), height: getAttr(raw, 'data-height') };
  if (
    declared.width &&
    declared.height &&
    (Number(declared.width) !== canvas.width || Number(declared.height) !== canvas.height)
  ) {
    findings.push({
      code: 'canvas_size_overridden',
      severity: 'warning',
      location: snippet(root.raw),
      message:
        `The composition declares ${declared.width}x${declared.height} but renders at ` +
        `the requested ${canvas.width}x${canvas.height}`,
      fix_hint:
        `Lay the composition out for ${canvas.width}x${canvas.height} pixels (data-width, ` +
        `data-height and CSS sizes).`,
    });
  }
  raw = setAttr(setAttr(raw, 'data-width', String(canvas.width)), 'data-height', String(canvas.height));

  const scripts = inlineScripts(source).join('\n');
  const registersTimeline = scripts.includes('__timelines');
  const usesGsap = /\bgsap\b/.test(scripts);
  if (!registersTimeline && !usesGsap) raw = setAttr(raw, 'data-no-timeline', '');
  if (getAttr(raw, 'data-no-timeline') !== undefined && getAttr(raw, 'data-duration') === undefined) {
    findings.push({
      code: 'missing_duration',
      severity: 'error',
      location: snippet(root.raw),
      message: 'The composition has no GSAP timeline and no data-duration, so its length is unknown',
      fix_hint:
        'Add data-duration="<seconds>" to the root composition element, or register a GSAP timeline in ' +
        'window.__timelines.',
    });
  }
  return raw;
}
