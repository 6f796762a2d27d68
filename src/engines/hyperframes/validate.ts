// Validation of a HyperFrames composition: our own preparation checks, then @hyperframes/lint on
// the document exactly as it will render (local scripts, forced canvas size), then its length: the
// producer renders exactly the root element's data-duration (a shorter GSAP timeline holds its last
// state, a longer one is cut), so a requested length is checked against that attribute.
import { lintHyperframeHtml, type HyperframeLintFinding } from '@hyperframes/lint';
import { DEFAULT_FPS, durationFinding, requestedDurationFinding, sourceSizeFinding } from '../limits.js';
import type { Finding, ValidationTarget } from '../types.js';
import { prepareComposition } from './prepare.js';
import { rootDuration } from './timing.js';

export async function validateHyperframes(source: string, target: ValidationTarget): Promise<Finding[]> {
  const tooLarge = sourceSizeFinding(source);
  if (tooLarge) return [tooLarge];
  if (!/<[a-z!]/i.test(source)) {
    return [
      {
        code: 'not_html',
        severity: 'error',
        message: 'The composition is not an HTML document',
        fix_hint: 'Return one complete HTML document.',
      },
    ];
  }
  const prepared = prepareComposition(source, { width: target.width, height: target.height });
  let lintFindings: HyperframeLintFinding[];
  try {
    lintFindings = (await lintHyperframeHtml(prepared.html)).findings;
  } catch (err) {
    return [
      {
        code: 'unparseable_html',
        severity: 'error',
        message: `The HTML could not be parsed: ${(err as Error).message}`,
      },
    ];
  }
  const findings = [...prepared.findings, ...lintFindings.flatMap(fromLint)];
  const declaredDuration = rootDuration(prepared.html);
  if (declaredDuration !== undefined) {
    const tooLong = durationFinding(declaredDuration, DEFAULT_FPS, 'data-duration');
    if (tooLong) findings.push(tooLong);
  }
  const requested = target.durationSeconds ?? null;
  if (requested !== null) {
    if (declaredDuration === undefined) {
      if (!findings.some((f) => f.code === 'missing_duration')) findings.push(missingDuration(requested));
    } else {
      const wrong = requestedDurationFinding(declaredDuration, requested, 'data-duration');
      if (wrong)
        findings.push({
          ...wrong,
          fix_hint:
            `Set data-duration="${requested}" on the root element and make the timeline exactly ${requested} ` +
            `seconds long (tl.set({}, {}, ${requested})).`,
        });
    }
  }
  return findings;
}

/** A video of a requested length whose root element does not say how long it is. */
function missingDuration(requested: number): Finding {
  return {
    code: 'missing_duration',
    severity: 'error',
    location: 'data-duration',
    message: `The root composition element has no data-duration; this video must last ${requested} s`,
    fix_hint:
      `Add data-duration="${requested}" to the root element (the one with data-composition-id) and make the ` +
      `timeline exactly ${requested} seconds long (tl.set({}, {}, ${requested})).`,
  };
}

function fromLint(f: HyperframeLintFinding): Finding[] {
  if (f.severity === 'info') return [];
  const location = f.selector ?? (f.elementId ? `#${f.elementId}` : undefined) ?? f.snippet ?? f.file;
  return [{ code: f.code, severity: f.severity, message: f.message, location, fix_hint: f.fixHint }];
}
