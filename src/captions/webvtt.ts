// Captions of the narration: one cue per spoken phrase, timed to where the voice says it, written as
// WebVTT (the `captions_url`) and, for burned captions, drawn on the picture (src/engines/lottie/captions.ts).

export type Cue = { start: number; end: number; text: string };

/** A narration cut into phrases: sentences, and long sentences at their clauses. */
export function phrasesOf(text: string): string[] {
  const sentences = text
    // A full stop inside a word ("sanabel.jo", "3.5") ends no phrase: only one followed by a space does.
    .split(/(?<=[.!?…؟।])\s+|(?<=[。！？])/u)
    .map((s) => s.trim())
    .filter(Boolean);
  return sentences.flatMap((s) => {
    if ([...s].length <= 60) return [s];
    const parts = s.split(/(?<=[,;:،、，；])\s*/u).filter((p) => p.trim());
    // Clauses merged back up to about 60 characters a cue.
    const out: string[] = [];
    for (const p of parts) {
      const last = out.at(-1);
      if (last !== undefined && [...last].length + [...p].length < 60) out[out.length - 1] = `${last} ${p.trim()}`;
      else out.push(p.trim());
    }
    return out;
  });
}

/**
 * The cues of one clip placed at `offset` on the timeline: its phrases matched to the stretches of
 * speech found in it. When the voice pauses once per phrase, each phrase is its stretch; otherwise the
 * phrases share the speech by their length, from the first onset to the last end.
 */
export function cuesOf(text: string, spans: { start: number; end: number }[], offset: number): Cue[] {
  const phrases = phrasesOf(text);
  if (phrases.length === 0 || spans.length === 0) return [];
  const at = (t: number) => Math.round((offset + t) * 1000) / 1000;
  if (spans.length === phrases.length)
    return phrases.map((p, i) => ({ start: at(spans[i]!.start), end: at(spans[i]!.end), text: p }));
  // Merge stretches into as many groups as phrases by cutting at the longest pauses.
  if (spans.length > phrases.length) {
    const gaps = spans
      .slice(1)
      .map((s, i) => ({ i: i + 1, gap: s.start - spans[i]!.end }))
      .sort((a, b) => b.gap - a.gap)
      .slice(0, phrases.length - 1)
      .map((g) => g.i)
      .sort((a, b) => a - b);
    const bounds = [0, ...gaps, spans.length];
    return phrases.map((p, k) => ({
      start: at(spans[bounds[k]!]!.start),
      end: at(spans[bounds[k + 1]! - 1]!.end),
      text: p,
    }));
  }
  const first = spans[0]!.start;
  const last = spans.at(-1)!.end;
  const weights = phrases.map((p) => [...p].length);
  const sum = weights.reduce((a, b) => a + b, 0);
  let t = first;
  return phrases.map((p, i) => {
    const end = i === phrases.length - 1 ? last : t + ((last - first) * weights[i]!) / sum;
    const cue = { start: at(t), end: at(end), text: p };
    t = end;
    return cue;
  });
}

const stamp = (seconds: number) => {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
};

/** A WebVTT document of the cues (`lang` in a NOTE; the text escaped: `&`, `<`, `>`). */
export function webVtt(cues: Cue[], lang: string): string {
  const escape = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const body = cues.map((c, i) => `${i + 1}\n${stamp(c.start)} --> ${stamp(c.end)}\n${escape(c.text)}\n`);
  return `WEBVTT\n\nNOTE language: ${lang}\n\n${body.join('\n')}`;
}
