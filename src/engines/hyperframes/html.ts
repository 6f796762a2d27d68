// A small start-tag scanner: enough to find and rewrite attributes of the tags we care about
// (root composition, scripts, links, media) while leaving every other byte of the document as
// written. Script, style and comment contents are skipped, so markup inside them is not seen.

export type StartTag = {
  name: string;
  /** The whole tag as written, from `<` to `>`. */
  raw: string;
  start: number;
  end: number;
  /** True inside a <template> (sub-composition markup, not the root document). */
  inTemplate: boolean;
};

const TAG = /<!--[\s\S]*?(?:-->|$)|<(\/?)([a-zA-Z][\w:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title']);

export function scanStartTags(html: string): StartTag[] {
  const tags: StartTag[] = [];
  let templateDepth = 0;
  TAG.lastIndex = 0;
  for (let m = TAG.exec(html); m; m = TAG.exec(html)) {
    if (!m[2]) continue; // comment
    const name = m[2].toLowerCase();
    if (m[1]) {
      if (name === 'template') templateDepth = Math.max(0, templateDepth - 1);
      continue;
    }
    tags.push({ name, raw: m[0], start: m.index, end: m.index + m[0].length, inTemplate: templateDepth > 0 });
    if (name === 'template') templateDepth++;
    if (RAW_TEXT.has(name)) {
      // Jump past the element's text: `</script>` inside it would end it anyway.
      const close = html.toLowerCase().indexOf(`</${name}`, TAG.lastIndex);
      TAG.lastIndex = close === -1 ? html.length : close;
    }
  }
  return tags;
}

/** The root composition element: the first one carrying data-composition-id outside a <template>. */
export function findRootComposition(tags: StartTag[]): StartTag | undefined {
  return tags.find((t) => !t.inTemplate && getAttr(t.raw, 'data-composition-id') !== undefined);
}

/** Text of every inline <script> (no src), in document order. */
export function inlineScripts(html: string): string[] {
  const out: string[] = [];
  for (const tag of scanStartTags(html)) {
    if (tag.name !== 'script' || getAttr(tag.raw, 'src') !== undefined) continue;
    const close = html.toLowerCase().indexOf('</script', tag.end);
    out.push(html.slice(tag.end, close === -1 ? html.length : close));
  }
  return out;
}

const attrPattern = (name: string) =>
  new RegExp(`(\\s)${name.replace(/[-:]/g, '\\$&')}(?:\\s*=\\s*("[^"]*"|'[^']*'|[^\\s"'>]+))?(?=[\\s/>])`, 'i');

/** Attribute value ('' for a bare attribute), or undefined when absent. Entities are not decoded. */
export function getAttr(rawTag: string, name: string): string | undefined {
  const m = attrPattern(name).exec(rawTag);
  if (!m) return undefined;
  const v = m[2] ?? '';
  return /^["']/.test(v) ? v.slice(1, -1) : v;
}

/** The tag with `name` set to `value` (a bare attribute when value is ''), replacing any existing one. */
export function setAttr(rawTag: string, name: string, value: string): string {
  const attr = value === '' ? name : `${name}="${value.replace(/"/g, '&quot;')}"`;
  const re = attrPattern(name);
  if (re.test(rawTag)) return rawTag.replace(re, (_m, space: string) => `${space}${attr}`);
  return rawTag.replace(/\s*(\/?)>$/, ` ${attr}$1>`);
}

/** Applies replacements (by tag position) to the document. */
export function replaceTags(html: string, replacements: Map<StartTag, string | null>): string {
  let out = '';
  let pos = 0;
  const sorted = [...replacements.entries()].sort(([a], [b]) => a.start - b.start);
  for (const [tag, replacement] of sorted) {
    out += html.slice(pos, tag.start) + (replacement ?? '');
    pos = tag.end;
  }
  return out + html.slice(pos);
}
