// Untrusted bytes parsed in the render sandbox: ffprobe on a user's video part or sound track, and ffmpeg
// decoding a user's track, run as renders do (bubblewrap namespaces without network, the render user, a
// control group, prlimit, an environment without the worker's credentials), with only a copy of the input
// visible and their output taken back only as a regular file.
import { execFileSync } from 'node:child_process';
import { constants as fsConstants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Confinement } from '../../video/index.js';
import { createWorkDir, giveToRenderUser, sandboxedSpawn, type RenderSandboxConfig } from './sandbox.js';

const WORK_DIR_PREFIX = 'media-probe-';

const resolved = new Map<string, string>();

/**
 * A program by its path, or found on PATH (the sandbox runs absolute paths only); looked up once per process, not on
 * every run (the API probes a track inside a request).
 */
function absoluteProgram(program: string): string {
  if (path.isAbsolute(program)) return program;
  let found = resolved.get(program);
  if (found === undefined) {
    found = execFileSync('sh', ['-c', 'command -v "$1"', 'sh', program], { encoding: 'utf8' }).trim() || program;
    resolved.set(program, found);
  }
  return found;
}

/**
 * Runs each program in the render sandbox `config` describes, its `inputs` copied into a work directory of its own
 * and its `outputs` written there, then taken back by `collect`.
 */
export function renderSandboxConfinement(config: RenderSandboxConfig): Confinement {
  return async (argv, inputs, outputs = []) => {
    const workDir = createWorkDir(config, WORK_DIR_PREFIX);
    try {
      const copies = new Map<string, string>();
      for (const [i, input] of inputs.entries()) {
        const copy = path.join(workDir, `input-${i}${path.extname(input)}`);
        await fs.copyFile(input, copy);
        giveToRenderUser(config, copy);
        copies.set(input, copy);
      }
      const written = outputs.map((output, i) => ({
        output,
        inside: path.join(workDir, `output-${i}${path.extname(output)}`),
      }));
      for (const { output, inside } of written) copies.set(output, inside);
      const program = [absoluteProgram(argv[0]!), ...argv.slice(1).map((a) => copies.get(a) ?? a)];
      const sandboxed = sandboxedSpawn(config, path.basename(workDir), program, workDir, [], {});
      return {
        command: sandboxed.command,
        args: sandboxed.args,
        env: sandboxed.env,
        async collect() {
          // Read without following a link the program may have left in place of its output.
          for (const { output, inside } of written) {
            const handle = await fs.open(inside, fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW);
            try {
              if (!(await handle.stat()).isFile()) throw new Error(`${path.basename(inside)} is not a regular file`);
              await fs.writeFile(output, await handle.readFile());
            } finally {
              await handle.close();
            }
          }
        },
        async release() {
          await fs.rm(workDir, { recursive: true, force: true });
          await sandboxed.cgroup?.remove();
        },
      };
    } catch (err) {
      await fs.rm(workDir, { recursive: true, force: true });
      throw err;
    }
  };
}
