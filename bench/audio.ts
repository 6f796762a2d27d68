// bench/audio: what the sound adds to a video: mixTimeline (measure the inputs, synthesize the bed, mix,
// master, encode, re-measure) then muxAudio into a rendered MP4, per second of video.
//   npx tsx bench/audio.ts [--seconds 10,30,60] [--reps 3] [--cases voice+bed,voice+track,bed]
// Speech: one espeak-ng phrase per 5-second scene (espeak-ng must be installed, as `npm test` does); the
// user's track: 25 s of MP3 made by ffmpeg (looped for longer videos); the video: 720×1280, 30 fps H.264 made
// by ffmpeg (the mux copies it). Reported: median wall seconds and CPU seconds (this process plus every
// ffmpeg it ran) per second of video, and the loudness mixTimeline measured.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { mixTimeline, type MusicSource, type SpeechClip } from '../src/audio/mix.js';
import { muxAudio } from '../src/video/index.js';
import { today } from './support.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10,30,60' },
    reps: { type: 'string', default: '3' },
    cases: { type: 'string', default: 'voice+bed,voice+track,bed' },
  },
});
const lengths = values.seconds.split(',').map(Number);
const reps = Number(values.reps);
const cases = values.cases.split(',');

const PHRASES = [
  'Fresh bread every morning, baked by hand.',
  'Order online and pick it up on your way to work.',
  'Open every day from seven until six.',
  'Our sourdough rises for two whole days.',
];

/** CPU seconds of this process and of its finished children (ffmpeg), from /proc (Linux). */
function cpuSeconds(): number {
  const own = process.cpuUsage();
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  // After the ") ", field 3 of the stat line is index 0: cutime and cstime are fields 16 and 17.
  const children = (Number(fields[13]) + Number(fields[14])) / 100;
  return (own.user + own.system) / 1e6 + children;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ffmpeg = (args: string[]) => execFileSync('ffmpeg', ['-v', 'error', ...args], { stdio: 'ignore' });

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-audio-'));
try {
  const phrases = PHRASES.map((text, k) => {
    const file = path.join(tmp, `phrase-${k}.wav`);
    execFileSync('espeak-ng', ['-w', file, text]);
    return file;
  });
  const track = path.join(tmp, 'track.mp3');
  ffmpeg([
    '-f',
    'lavfi',
    '-i',
    'aevalsrc=0.2*sin(2*PI*220*t)*(0.6+0.4*cos(4*PI*t)):s=44100:c=stereo',
    '-t',
    '25',
    track,
  ]);

  console.log(`bench/audio ${today()} reps=${reps} load=${os.loadavg()[0]!.toFixed(1)}`);
  console.log('| case | video s | mix wall s | mux wall s | wall s per video-s | CPU s per video-s | LUFS | dBTP |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const seconds of lengths) {
    const video = path.join(tmp, `video-${seconds}.mp4`);
    ffmpeg([
      '-f',
      'lavfi',
      '-i',
      `testsrc2=s=720x1280:r=30:d=${seconds}`,
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      video,
    ]);
    const cuts = Array.from({ length: Math.floor(seconds / 5) - 1 }, (_, k) => (k + 1) * 5);
    const speech: SpeechClip[] = [0, ...cuts].map((at, k) => ({
      file: phrases[k % phrases.length]!,
      startSeconds: at + 0.4,
    }));
    for (const name of cases) {
      const music: MusicSource = name.endsWith('track')
        ? { kind: 'track', file: track }
        : { kind: 'generated', motion: 'bouncy', cutsSeconds: cuts, seed: `bench-${seconds}` };
      const runs: { mix: number; mux: number; cpu: number; lufs: number; peak: number }[] = [];
      for (let r = 0; r < reps; r++) {
        const mixFile = path.join(tmp, 'mix.m4a');
        const cpu0 = cpuSeconds();
        const t0 = performance.now();
        const loudness = await mixTimeline({
          durationSeconds: seconds,
          speech: name.startsWith('voice') ? speech : [],
          music,
          outFile: mixFile,
        });
        const t1 = performance.now();
        await muxAudio(video, mixFile, path.join(tmp, 'out.mp4'));
        const t2 = performance.now();
        runs.push({
          mix: (t1 - t0) / 1000,
          mux: (t2 - t1) / 1000,
          cpu: cpuSeconds() - cpu0,
          lufs: loudness.integratedLufs,
          peak: loudness.truePeakDbtp,
        });
      }
      const mix = median(runs.map((r) => r.mix));
      const mux = median(runs.map((r) => r.mux));
      const cpu = median(runs.map((r) => r.cpu));
      const last = runs[runs.length - 1]!;
      console.log(
        `| ${name} | ${seconds} | ${mix.toFixed(2)} | ${mux.toFixed(2)} | ${((mix + mux) / seconds).toFixed(3)} | ` +
          `${(cpu / seconds).toFixed(3)} | ${last.lufs} | ${last.peak} |`,
      );
    }
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
