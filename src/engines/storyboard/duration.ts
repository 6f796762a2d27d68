// The video length a prompt asks for in words: "10-second", "15 s", "half a minute", "1.5 minutes".

const WORD_NUMBERS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  fifteen: 15, twenty: 20, thirty: 30, forty: 40, 'forty-five': 45, fifty: 50, sixty: 60, ninety: 90,
};

const NUMBER = String.raw`(\d+(?:\.\d+)?|${Object.keys(WORD_NUMBERS).join('|')})`;
const SECONDS = new RegExp(String.raw`\b${NUMBER}[\s-]*(?:seconds?|secs?|s)\b`, 'i');
const MINUTES = new RegExp(String.raw`\b${NUMBER}[\s-]*(?:minutes?|mins?)\b`, 'i');
const HALF_MINUTE = /\bhalf[\s-]+(?:a[\s-]+)?minute\b/i;
const A_MINUTE = /\b(?:a|one)[\s-]+minute\b/i;

/** "the 80s", "90s vibes": a decade, not a length. */
const isDecade = (match: string) => /^[2-9]0s$/i.test(match);

const value = (token: string) => WORD_NUMBERS[token.toLowerCase()] ?? Number(token);

/** Seconds the text asks for, or null when it names no length. Not clamped: the caller applies the limits. */
export function statedDurationSeconds(text: string): number | null {
  if (HALF_MINUTE.test(text)) return 30;
  const minutes = MINUTES.exec(text);
  const seconds = SECONDS.exec(text);
  // The earlier mention wins ("a 30-second cut of the 2 minute film").
  if (minutes && (!seconds || minutes.index < seconds.index)) return value(minutes[1]!) * 60;
  if (seconds && !isDecade(seconds[0])) return value(seconds[1]!);
  if (A_MINUTE.test(text)) return 60;
  return null;
}

/** The phrase naming the length, for removal from on-screen text ("A 10-second explainer" → "An explainer"). */
export function withoutDurationPhrase(text: string): string {
  return text
    .replace(new RegExp(String.raw`\b(a|an)\s+${NUMBER}[\s-]*(?:seconds?|secs?|s|minutes?|mins?)\b[\s-]*`, 'i'), (_m, article: string) =>
      article[0] === article[0]!.toUpperCase() ? 'A ' : 'a ',
    )
    .replace(new RegExp(String.raw`\b${NUMBER}[\s-]*(?:seconds?|secs?|minutes?|mins?)\b[\s-]*`, 'i'), '')
    .replace(/\b(?:half[\s-]+(?:a[\s-]+)?minute|a[\s-]+minute)\b[\s-]*/i, '')
    .replace(/\bA ([aeiou])/g, 'An $1')
    .replace(/\ba ([aeiou])/g, 'an $1')
    .replace(/\s{2,}/g, ' ')
    .trim();
}
