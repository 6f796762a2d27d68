// Protocol `embedded`: the offline voice `npm start` installs from Debian (src/tooling/install.mjs),
// so a fresh machine speaks with no key. Runs Festival's text2wave or espeak-ng (voices.ts) as a child
// process with the text on stdin (never on the command line: any text is safe) into a WAV file.
import { spawn } from 'node:child_process';
import { z } from 'zod';
import { SpeechError, type SpeechProtocol } from '../protocol.js';
import { embeddedVoiceFor, EMBEDDED_VOICES } from './voices.js';

const entry = z
  .object({
    timeout_seconds: z.number().positive().max(600).default(60),
    /** Directory of text2wave and espeak-ng; default: found on PATH. */
    bin_dir: z.string().min(1).optional(),
  })
  .strict();
type Entry = z.infer<typeof entry>;

function run(cmd: string, args: string[], input: Buffer, timeoutMs: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['pipe', 'ignore', 'pipe'], signal, timeout: timeoutMs });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString('utf8')).slice(-400)));
    child.on('error', (err) =>
      reject(signal.aborted ? (signal.reason ?? err) : new SpeechError(`${cmd} could not run: ${err.message}`)),
    );
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new SpeechError(`${cmd} exited with ${code}: ${stderr.trim()}`));
    });
    child.stdin.end(input);
  });
}

export const embeddedSpeech: SpeechProtocol<Entry> = {
  id: 'embedded',
  entry,
  triedLast: true,
  connect: (e) => ({
    async speak(u) {
      // A voice id of this provider ("de", "ru") picks that language's voice; any other reads in the text's.
      const voice = embeddedVoiceFor(u.voice && Object.hasOwn(EMBEDDED_VOICES, u.voice) ? u.voice : u.lang);
      const bin = (name: string) => (e.bin_dir ? `${e.bin_dir}/${name}` : name);
      const ms = e.timeout_seconds * 1000;
      if (voice.synthesiser === 'festival') {
        const text = Buffer.from(u.text, voice.latin1 ? 'latin1' : 'utf8');
        await run(bin('text2wave'), ['-eval', `(${voice.voice})`, '-o', u.outFile], text, ms, u.signal);
      } else {
        const args = ['-v', voice.voice, '-s', String(voice.rate), '--stdin', '-w', u.outFile];
        await run(bin('espeak-ng'), args, Buffer.from(u.text, 'utf8'), ms, u.signal);
      }
    },
  }),
};
