// Validation of a HyperFrames composition: our own preparation checks, then @hyperframes/lint on
// the document exactly as it will render (local scripts, forced canvas size).
import { lintHyperframeHtml, type HyperframeLintFinding } from '@hyperframes/lint';
import { durationFinding, sourceSizeFinding } from '../limits.js';
import type { Finding } from '../types.js';
import { findRootComposition, getAttr, scanStartTags } from './html.js';
import { prepareComposition } from './prepare.js';

export async function validateHyperframes(source: string, canvas: { width: number; height: number }): Promise<Finding[]> {
  const tooLarge = sourceSizeFinding(source);
  if (tooLarge) return [tooLarge];
  if (!/<[a-z!]/i.test(source)) {
    return [{ code: 'not_html', severity: 'error', message: 'The composition is not an HTML document', fix_hint: 'Return one complete HTML document.' }];
  }
  const prepared = prepareComposition(source, canvas);
  let lintFindings: HyperframeLintFinding[];
  try {
    lintFindings = (await lintHyperframeHtml(prepared.html)).findings;
  } catch (err) {
    return [{ code: 'unparseable_html', severity: 'error', message: `The HTML could not be parsed: ${(err as Error).message}` }];
  }
  const findings = [...prepared.findings, ...lintFindings.flatMap(fromLint)];
  const declaredDuration = rootDuration(prepared.html);
  if (declaredDuration !== undefined) {
    const tooLong = durationFinding(declaredDuration, 30, 'data-duration');
    if (tooLong) findings.push(tooLong);
  }
  return findings;
}

function fromLint(f: HyperframeLintFinding): Finding[] {
  if (f.severity === 'info') return [];
  const location = f.selector ?? (f.elementId ? `#${f.elementId}` : undefined) ?? f.snippet ?? f.file;
  return [{ code: f.code, severity: f.severity, message: f.message, location, fix_hint: f.fixHint }];
}

function rootDuration(html: string): number | undefined {
  const root = findRootComposition(scanStartTags(html));
  const value = root && getAttr(root.raw, 'data-duration');
  return value && Number.isFinite(Number(value)) ? Number(value) : undefined;
}
