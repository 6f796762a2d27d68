// The `auto` music bed, synthesized here at render time: no recorded or licensed media, only code. A
// storyboard's look (its motion: calm, smooth or bouncy) picks the tempo, the instruments and the groove;
// its scene cuts place the chord changes, each cut landing on a new chord with an accent (a bell, and for
// bouncy a cymbal); its seed picks the key and the progression. The same input gives the same samples:
// the only randomness is a PRNG seeded from `seed`, and the arithmetic is plain IEEE doubles.
//
// Synthesized in TypeScript rather than by ffmpeg's aevalsrc: a bed is a few hundred notes with their own
// envelopes, which as one aevalsrc expression would be unreadable and evaluated by ffmpeg's interpreter per
// sample; here each note is a short loop over its own samples, and the result does not depend on the ffmpeg
// build.
import { createHash } from 'node:crypto';

export type Motion = 'calm' | 'smooth' | 'bouncy';

export type BedRequest = {
  durationSeconds: number;
  motion: Motion;
  /** Times of the scene cuts, in seconds from the start (0 and the end are not cuts). */
  cutsSeconds: readonly number[];
  seed: string;
  sampleRate?: number;
};

/** Two channels of samples in [-1, 1], left and right. */
export type StereoPcm = { sampleRate: number; left: Float32Array; right: Float32Array };

/** How each motion plays. */
type Style = {
  bpm: number;
  /** Beats a chord lasts inside a long scene before the next one. */
  beatsPerChord: number;
  padAttack: number;
  padLevel: number;
  /** Bass notes per beat (0: one held note per chord). */
  bassPerBeat: number;
  /** Pluck (arpeggio) notes per beat (0: none). */
  arpPerBeat: number;
  drums: 'none' | 'light' | 'groove';
  reverbWet: number;
  progressions: readonly (readonly Degree[])[];
};

/** Chords by scale degree of the major key; the last chord of a bed is always I. */
type Degree = 'I' | 'ii' | 'iii' | 'IV' | 'V' | 'vi';

/** Semitones above the key's root of each chord's tones (sevenths and ninths for colour, no dissonant ones). */
const CHORDS: Record<Degree, readonly number[]> = {
  I: [0, 4, 7, 11, 14],
  ii: [2, 5, 9, 12, 16],
  iii: [4, 7, 11, 14],
  IV: [5, 9, 12, 16, 19],
  V: [7, 11, 14, 17, 21],
  vi: [9, 12, 16, 19, 23],
};

const STYLES: Record<Motion, Style> = {
  calm: {
    bpm: 68,
    beatsPerChord: 8,
    padAttack: 1.4,
    padLevel: 0.07,
    bassPerBeat: 0,
    arpPerBeat: 0,
    drums: 'none',
    reverbWet: 0.35,
    progressions: [
      ['I', 'vi', 'IV', 'V'],
      ['I', 'IV', 'vi', 'V'],
      ['vi', 'IV', 'I', 'V'],
    ],
  },
  smooth: {
    bpm: 90,
    beatsPerChord: 4,
    padAttack: 0.45,
    padLevel: 0.055,
    bassPerBeat: 0.5,
    arpPerBeat: 1,
    drums: 'light',
    reverbWet: 0.25,
    progressions: [
      ['ii', 'V', 'I', 'vi'],
      ['I', 'iii', 'IV', 'V'],
      ['vi', 'ii', 'V', 'I'],
    ],
  },
  bouncy: {
    bpm: 116,
    beatsPerChord: 4,
    padAttack: 0.06,
    padLevel: 0.035,
    bassPerBeat: 2,
    arpPerBeat: 2,
    drums: 'groove',
    reverbWet: 0.15,
    progressions: [
      ['I', 'V', 'vi', 'IV'],
      ['vi', 'IV', 'I', 'V'],
      ['I', 'IV', 'V', 'IV'],
    ],
  },
};

/** How long before a cut the chord playing starts to let go. */
const CUT_BREATH_SECONDS = 0.35;

/** A seeded PRNG (sfc32) from the SHA-256 of the seed: uniform in [0, 1). */
function prng(seed: string): () => number {
  const h = createHash('sha256').update(seed).digest();
  let a = h.readUInt32LE(0);
  let b = h.readUInt32LE(4);
  let c = h.readUInt32LE(8);
  let d = h.readUInt32LE(12);
  return () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}

const midiToHz = (note: number) => 440 * 2 ** ((note - 69) / 12);

/** One period of a waveform, read with linear interpolation at a phase in cycles. */
const TABLE_SIZE = 4096;
function table(shape: (x: number) => number): (phase: number) => number {
  const values = new Float64Array(TABLE_SIZE + 1);
  for (let i = 0; i <= TABLE_SIZE; i++) values[i] = shape((2 * Math.PI * i) / TABLE_SIZE);
  return (phase) => {
    const p = (phase - Math.floor(phase)) * TABLE_SIZE;
    const i = p | 0;
    return values[i]! + (values[i + 1]! - values[i]!) * (p - i);
  };
}
const sine = table(Math.sin);
/** A warm wave: the fundamental with soft 2nd and 3rd harmonics. */
const warm = table((x) => (Math.sin(x) + 0.28 * Math.sin(2 * x) + 0.1 * Math.sin(3 * x)) / 1.25);

/** A chord held over [start, end) seconds of the bed. */
type ChordSpan = { start: number; end: number; degree: Degree; atCut: boolean };

/**
 * The chord timeline: a new chord at the start and at every cut; inside a scene longer than a chord's beats the
 * progression moves on at that pace (counted from the scene's start, so the cut stays on the downbeat). The last chord
 * is the tonic, so the bed resolves where the video ends.
 */
function chordSpans(duration: number, cuts: readonly number[], style: Style, progression: readonly Degree[]) {
  const beat = 60 / style.bpm;
  const chordLength = beat * style.beatsPerChord;
  const bounds = [
    0,
    ...[...new Set(cuts)].filter((c) => c > 0.25 && c < duration - 0.25).sort((x, y) => x - y),
    duration,
  ];
  const spans: ChordSpan[] = [];
  let step = 0;
  for (let s = 0; s + 1 < bounds.length; s++) {
    const [from, to] = [bounds[s]!, bounds[s + 1]!];
    // Whole chords inside the scene, the last one taking any remainder shorter than half a chord.
    const count = Math.max(1, Math.round((to - from) / chordLength));
    for (let k = 0; k < count; k++) {
      const start = from + k * chordLength;
      const end = k === count - 1 ? to : start + chordLength;
      spans.push({ start, end, degree: progression[step++ % progression.length]!, atCut: k === 0 && s > 0 });
    }
  }
  spans[spans.length - 1]!.degree = 'I';
  return spans;
}

/** Places each tone's pitch class in the octave [low, low + 12): close voicings that move little chord to chord. */
const voice = (tones: readonly number[], key: number, low: number) =>
  tones.map((t) => {
    let note = key + t;
    while (note >= low + 12) note -= 12;
    while (note < low) note += 12;
    return note;
  });

class Bed {
  readonly left: Float64Array;
  readonly right: Float64Array;
  constructor(
    readonly rate: number,
    readonly length: number,
  ) {
    this.left = new Float64Array(length);
    this.right = new Float64Array(length);
  }

  /**
   * Adds `sample(n, t)` (n: samples since the note's start, t the same in seconds; called in order, so a note may
   * keep state such as a decaying envelope) over [start, start + seconds), panned (-1 left … 1 right).
   */
  add(start: number, seconds: number, pan: number, sample: (n: number, t: number) => number) {
    const from = Math.max(0, Math.round(start * this.rate));
    const to = Math.min(this.length, Math.round((start + seconds) * this.rate));
    // Equal-power pan.
    const angle = ((pan + 1) * Math.PI) / 4;
    const [gl, gr] = [Math.cos(angle), Math.sin(angle)];
    for (let i = from; i < to; i++) {
      const v = sample(i - from, (i - from) / this.rate);
      this.left[i]! += v * gl;
      this.right[i]! += v * gr;
    }
  }

  /** The per-sample factor of an exponential decay with time constant `seconds`. */
  decay(seconds: number) {
    return Math.exp(-1 / (seconds * this.rate));
  }
}

/** A soft pad note: three detuned warm oscillators, a raised-cosine attack, a slow swell, an exponential release. */
function pad(
  bed: Bed,
  note: number,
  start: number,
  hold: number,
  attack: number,
  release: number,
  level: number,
  pan: number,
) {
  const hz = midiToHz(note);
  const [f1, f2, f3] = [hz, hz * 2 ** (7 / 1200), hz * 2 ** (-6 / 1200)];
  const k = bed.decay(release);
  let fall = 1;
  bed.add(start, hold + release * 4, pan, (_n, t) => {
    const rise = t < attack ? 0.5 - 0.5 * sine(t / (2 * attack) + 0.25) : 1;
    if (t > hold) fall *= k;
    const swell = 1 + 0.12 * sine(0.23 * t);
    const wave = warm(f1 * t) + warm(f2 * t + 0.3) + warm(f3 * t + 0.6);
    return (level * rise * fall * swell * wave) / 3;
  });
}

/** A plucked note (an electric-piano-like tone): a quick attack, a decay, a bright partial that fades first. */
function pluck(bed: Bed, note: number, start: number, decay: number, level: number, pan: number) {
  const hz = midiToHz(note);
  const [kAttack, kBody, kBright] = [bed.decay(0.003), bed.decay(decay), bed.decay(decay * 0.3)];
  let [attack, body, bright] = [1, level, 0.35];
  bed.add(start, decay * 5, pan, (_n, t) => {
    attack *= kAttack;
    body *= kBody;
    bright *= kBright;
    return (1 - attack) * body * (sine(hz * t) + bright * sine(2 * hz * t));
  });
}

/** A bass note: a round tone with a short attack and release. */
function bass(bed: Bed, note: number, start: number, seconds: number, level: number, plucked: boolean) {
  const hz = midiToHz(note);
  const kBody = plucked ? bed.decay(Math.max(0.12, seconds * 0.9)) : 1;
  const kFall = bed.decay(0.03);
  let [body, fall] = [level, 1];
  bed.add(start, seconds + 0.12, 0, (_n, t) => {
    body *= kBody;
    if (t > seconds) fall *= kFall;
    return Math.min(1, t / 0.012) * body * fall * (sine(hz * t) + 0.22 * sine(2 * hz * t));
  });
}

/** A bell on a cut: inharmonic partials, each decaying on its own. */
function bell(bed: Bed, note: number, start: number, level: number, pan: number) {
  const hz = midiToHz(note);
  const partials = [
    [1, 1, 2.2],
    [2, 0.45, 1.3],
    [3.01, 0.22, 0.8],
    [4.17, 0.12, 0.5],
    [5.43, 0.06, 0.3],
  ].map(([ratio, amp, decay]) => ({ hz: hz * ratio!, amp: amp! * level, k: bed.decay(decay!) }));
  const kAttack = bed.decay(0.002);
  let attack = 1;
  bed.add(start, 4, pan, (_n, t) => {
    attack *= kAttack;
    let v = 0;
    for (const p of partials) {
      p.amp *= p.k;
      v += p.amp * sine(p.hz * t);
    }
    return (1 - attack) * v;
  });
}

/** A kick: a sine falling from 120 to 45 Hz. */
function kick(bed: Bed, start: number, level: number) {
  const [kBody, kSweep] = [bed.decay(0.16), bed.decay(0.04)];
  let [body, sweep] = [level, 1];
  bed.add(start, 0.45, 0, (_n, t) => {
    body *= kBody;
    sweep *= kSweep;
    // Phase of a frequency falling exponentially from 120 Hz towards 45 Hz (time constant 40 ms).
    return body * sine(45 * t + 75 * 0.04 * (1 - sweep));
  });
}

/** Noise shaped by an envelope and a one-pole high-pass: hats, claps, shakers, cymbals. */
function noise(
  bed: Bed,
  random: () => number,
  start: number,
  seconds: number,
  level: number,
  pan: number,
  envelope: (t: number) => number,
  brightness: number,
) {
  let last = 0;
  let low = 0;
  bed.add(start, seconds, pan, (_n, t) => {
    const white = random() * 2 - 1;
    low += (white - low) * (1 - brightness); // a low-pass; white minus it is the high-pass
    const high = white - low;
    const v = high * 0.7 + last * 0.3;
    last = high;
    return level * envelope(t) * v;
  });
}

/** A small Schroeder reverb (four combs, two all-passes per side) mixed in at `wet`. */
function reverb(bed: Bed, wet: number) {
  const combs = [1557, 1617, 1491, 1422];
  const allPasses = [225, 556];
  const scale = bed.rate / 44_100;
  for (const [side, spread] of [
    [bed.left, 0],
    [bed.right, 23],
  ] as const) {
    const dry = Float64Array.from(side);
    const out = new Float64Array(side.length);
    for (const size of combs) {
      const n = Math.round((size + spread) * scale);
      const buffer = new Float64Array(n);
      let filtered = 0;
      for (let i = 0, j = 0; i < dry.length; i++, j = (j + 1) % n) {
        const delayed = buffer[j]!;
        filtered = delayed * 0.75 + filtered * 0.25; // damping: highs die first
        buffer[j] = dry[i]! + filtered * 0.82;
        out[i]! += delayed;
      }
    }
    for (const size of allPasses) {
      const n = Math.round((size + spread) * scale);
      const buffer = new Float64Array(n);
      for (let i = 0, j = 0; i < out.length; i++, j = (j + 1) % n) {
        const delayed = buffer[j]!;
        const input = out[i]!;
        buffer[j] = input + delayed * 0.5;
        out[i] = delayed - input;
      }
    }
    for (let i = 0; i < side.length; i++) side[i] = dry[i]! * (1 - wet) + out[i]! * wet * 0.18;
  }
}

/** The bed for a storyboard: its samples, the same for the same request. */
export function synthesizeBed(request: BedRequest): StereoPcm {
  const rate = request.sampleRate ?? 48_000;
  const duration = request.durationSeconds;
  const style = STYLES[request.motion];
  const random = prng(`${request.motion}\n${request.seed}`);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  // A key whose pads sit between F3 and E4 (MIDI 53–64), where they stay under a voice's formants.
  const key = 53 + Math.floor(random() * 12);
  const progression = pick(style.progressions);
  const beat = 60 / style.bpm;
  const bed = new Bed(rate, Math.max(1, Math.round(duration * rate)));
  const spans = chordSpans(duration, request.cutsSeconds, style, progression);

  for (const [index, span] of spans.entries()) {
    const length = span.end - span.start;
    const tones = CHORDS[span.degree];
    const padNotes = voice(tones.slice(0, 4), key, 55);
    // Before a cut the chord lets go a moment early, so the next scene's chord and accent arrive on a breath;
    // elsewhere chords overlap by their release.
    const beforeCut = spans[index + 1]?.atCut ?? false;
    const hold = beforeCut ? Math.max(length / 2, length - CUT_BREATH_SECONDS) : length;
    const release = beforeCut ? CUT_BREATH_SECONDS : Math.max(0.4, style.padAttack);
    padNotes.forEach((note, k) =>
      pad(
        bed,
        note,
        span.start,
        hold,
        style.padAttack,
        release,
        style.padLevel,
        (k / (padNotes.length - 1)) * 1.2 - 0.6,
      ),
    );
    const root = voice([tones[0]!], key, 36)[0]!;
    const beats = Math.max(1, Math.round(length / beat));
    if (style.bassPerBeat === 0) bass(bed, root, span.start, hold, 0.16, false);
    else {
      const step = beat / style.bassPerBeat;
      const notes = Math.max(1, Math.floor(length / step + 0.01));
      for (let n = 0; n < notes; n++) {
        // Bouncy bass jumps an octave on the off-beats.
        const note = style.bassPerBeat >= 2 && n % 2 === 1 ? root + 12 : root;
        bass(bed, note, span.start + n * step, step * 0.8, 0.17, true);
      }
    }
    if (style.arpPerBeat > 0) {
      const step = beat / style.arpPerBeat;
      const arp = voice(tones, key, 67);
      const order = pick([
        [0, 1, 2, 3],
        [0, 2, 1, 3],
        [3, 2, 1, 0],
        [0, 2, 3, 1],
      ]);
      const notes = Math.floor(length / step + 0.01);
      for (let n = 0; n < notes; n++) {
        const note = arp[order[n % order.length]! % arp.length]!;
        const accent = n % (style.arpPerBeat * 2) === 0 ? 1 : 0.7;
        const level = (style.drums === 'groove' ? 0.06 : 0.07) * accent;
        pluck(bed, note, span.start + n * step, style.drums === 'groove' ? 0.18 : 0.45, level, n % 2 ? 0.45 : -0.45);
      }
    }
    if (style.drums !== 'none') {
      for (let b = 0; b < beats; b++) {
        const at = span.start + b * beat;
        if (at > span.end - 0.05) break;
        if (style.drums === 'groove') {
          kick(bed, at, 0.5);
          if (b % 2 === 1) noise(bed, random, at, 0.3, 0.18, 0.1, (t) => Math.exp(-t / 0.07), 0.55); // clap on 2 and 4
          noise(bed, random, at + beat / 2, 0.08, 0.06, 0.3, (t) => Math.exp(-t / 0.025), 0.1); // off-beat hat
        } else {
          if (b % 4 === 0) kick(bed, at, 0.22); // a soft kick on each chord's downbeat
          noise(bed, random, at + beat / 2, 0.12, 0.03, -0.3, (t) => Math.exp(-t / 0.04), 0.15); // off-beat shaker
        }
      }
    }
    if (span.atCut) {
      // The cut's accent: a bell on the new chord's root, and for the grooves a soft cymbal.
      bell(bed, voice([tones[0]!], key, 72)[0]!, span.start, style.drums === 'groove' ? 0.07 : 0.11, 0.2);
      // Calm has no beat to mark the cut: a low root note struck with the bell says "new scene".
      if (style.drums === 'none') pluck(bed, root + 12, span.start, 0.8, 0.14, 0);
      if (style.drums !== 'none')
        noise(
          bed,
          random,
          span.start,
          1.6,
          style.drums === 'groove' ? 0.05 : 0.03,
          -0.2,
          (t) => Math.exp(-t / 0.5),
          0.2,
        );
    }
  }

  reverb(bed, style.reverbWet);

  // Fades: in over the first moments, out over the last second or two.
  const fadeIn = Math.min(style.padAttack, duration / 4, 1);
  const fadeOut = Math.min(2, duration / 4);
  const left = new Float32Array(bed.length);
  const right = new Float32Array(bed.length);
  for (let i = 0; i < bed.length; i++) {
    const t = i / rate;
    let gain = 1;
    if (t < fadeIn) gain *= 0.5 - 0.5 * Math.cos((Math.PI * t) / fadeIn);
    if (t > duration - fadeOut) gain *= 0.5 + 0.5 * Math.cos((Math.PI * (t - (duration - fadeOut))) / fadeOut);
    // A gentle saturation keeps stacked notes from clipping; the mix sets the level.
    left[i] = Math.tanh(bed.left[i]! * gain);
    right[i] = Math.tanh(bed.right[i]! * gain);
  }
  return { sampleRate: rate, left, right };
}

/** The PCM as a 32-bit float WAV file (what ffmpeg reads without loss). */
export function wavFile(pcm: StereoPcm): Buffer {
  const frames = pcm.left.length;
  const data = frames * 2 * 4;
  const out = Buffer.alloc(44 + data);
  out.write('RIFF', 0, 'latin1');
  out.writeUInt32LE(36 + data, 4);
  out.write('WAVEfmt ', 8, 'latin1');
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(3, 20); // IEEE float
  out.writeUInt16LE(2, 22);
  out.writeUInt32LE(pcm.sampleRate, 24);
  out.writeUInt32LE(pcm.sampleRate * 8, 28);
  out.writeUInt16LE(8, 32);
  out.writeUInt16LE(32, 34);
  out.write('data', 36, 'latin1');
  out.writeUInt32LE(data, 40);
  for (let i = 0; i < frames; i++) {
    out.writeFloatLE(pcm.left[i]!, 44 + i * 8);
    out.writeFloatLE(pcm.right[i]!, 48 + i * 8);
  }
  return out;
}
