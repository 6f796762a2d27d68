// The tools the suite needs beyond npm packages, in one list. Under CI (CI=true) a missing one fails
// the whole run at once, naming it (globalSetup): CI exists to run every test, so a skip there would
// only hide a broken install. Elsewhere the tests that need a missing tool are skipped, and say what
// was skipped and why.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { containersUnavailable } from '../../src/tooling/containers.mjs';
import { CHROME_HEADLESS_SHELL, gofakes3, temporalServer } from '../../src/tooling/install.mjs';

/** Why a tool cannot be used here, or null when it can. Nothing is built or installed by asking. */
export const SUITE_TOOLS = {
  'the Temporal server (Go-built)': () => temporalServer({ build: false }).reason ?? null,
  'gofakes3 (Go-built S3 server)': () => gofakes3({ build: false }).reason ?? null,
  tesseract: () =>
    spawnSync('tesseract', ['--list-langs'], { encoding: 'utf8' }).stdout?.match(/^eng$/m)
      ? null
      : 'tesseract with English data is not installed',
  'pocketsphinx (US English model)': () =>
    fs.existsSync('/usr/share/pocketsphinx/model/en-us/en-us') &&
    spawnSync('pocketsphinx_continuous', ['-h']).error === undefined
      ? null
      : 'pocketsphinx and pocketsphinx-en-us are not installed',
  'Chromium headless shell': () =>
    fs.existsSync(CHROME_HEADLESS_SHELL) ? null : `${CHROME_HEADLESS_SHELL} is missing`,
  'a container engine (Docker, Compose v2, base images)': () => containersUnavailable(),
} satisfies Record<string, () => string | null>;

export type SuiteTool = keyof typeof SUITE_TOOLS;

export const underCi = () => process.env.CI === 'true';

/** Every missing tool with the reason, as one message; null when all are here. */
export function missingTools(): string | null {
  const missing = Object.entries(SUITE_TOOLS).flatMap(([name, why]) => {
    const reason = why();
    return reason ? [`${name}: ${reason}`] : [];
  });
  return missing.length
    ? `the test suite needs tools that are missing here:\n  ${missing.join('\n  ')}\n` +
        `(npm test's installer builds and installs them: see README "Two commands")`
    : null;
}

/**
 * For a test file that needs `tools`: true when they are missing here (outside CI), after saying what
 * is skipped and why; under CI a missing tool throws (globalSetup has already failed the run then).
 */
export function skipWithout(what: string, ...tools: SuiteTool[]): boolean {
  const reasons = tools.flatMap((t) => {
    const reason = SUITE_TOOLS[t]();
    return reason ? [`${t}: ${reason}`] : [];
  });
  if (reasons.length === 0) return false;
  if (underCi()) throw new Error(`${what} needs ${reasons.join('; ')}`);
  console.warn(`[SKIPPED] ${what}, because ${reasons.join('; ')}`);
  return true;
}
