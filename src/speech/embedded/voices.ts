// The embedded offline voice per planner language (src/storyboard/languages/): the most intelligible
// synthesiser Debian main ships for it (README, Sound: what was measured and why). Festival's HTS voice
// (English) and unit-selection / diphone voices (Russian, Italian) where Debian has one; espeak-ng's
// formant voices for the others. No neural voice's weights ship in an npm or Debian main package.

export type EmbeddedVoice =
  /** Festival's text2wave with this voice; `latin1`: the voice reads ISO-8859-1 text, not UTF-8. */
  | { synthesiser: 'festival'; voice: string; latin1?: boolean }
  /** espeak-ng with this voice, at `rate` words a minute. */
  | { synthesiser: 'espeak-ng'; voice: string; rate: number };

const espeak = (voice: string, rate = 160): EmbeddedVoice => ({ synthesiser: 'espeak-ng', voice, rate });

/** By the language's primary subtag. */
export const EMBEDDED_VOICES: Record<string, EmbeddedVoice> = {
  en: { synthesiser: 'festival', voice: 'voice_cmu_us_slt_arctic_hts' },
  ru: { synthesiser: 'festival', voice: 'voice_msu_ru_nsh_clunits' },
  it: { synthesiser: 'festival', voice: 'voice_lp_diphone', latin1: true },
  ar: espeak('ar', 150),
  de: espeak('de'),
  es: espeak('es'),
  fr: espeak('fr-fr'),
  hi: espeak('hi', 150),
  ja: espeak('ja', 150),
  ko: espeak('ko', 150),
  nl: espeak('nl'),
  pt: espeak('pt-br'),
  tr: espeak('tr'),
  zh: espeak('cmn', 150),
};

/** The voice for a BCP 47 tag; English when the language has none of its own. */
export function embeddedVoiceFor(lang: string): EmbeddedVoice {
  const primary = lang.toLowerCase().split('-')[0]!;
  return EMBEDDED_VOICES[primary] ?? EMBEDDED_VOICES.en!;
}
