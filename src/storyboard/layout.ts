// Layout rules both engines' storyboard drawings keep (README "Storyboards": layout), measured on rendered frames by
// test/engines/designed-layout.test.ts.

/** A tall canvas (9:16 and near it), where the social apps draw over the frame. */
export const isTall = (width: number, height: number) => width / height <= 0.8;

/**
 * The social safe area of tall video: TikTok, Reels and Shorts draw their header over the top of the frame and their
 * captions and buttons over the bottom fifth, so no text or pictogram goes in the top 12 % or the bottom 20 %.
 */
export const TALL_SAFE_AREA = { top: 0.12, bottom: 0.2 } as const;

/** Body text is never set smaller than this share of the canvas's short side. */
export const MIN_TEXT_SHARE = 0.022;

/**
 * Comparison cards without features hold only a name and a figure: they take this share of the height a card with
 * features would, centred where the cards go (side by side, or stacked on a tall canvas), not a tall card half empty.
 */
export const BARE_CARD_SHARE = { columns: 0.5, stacked: 0.7 } as const;

/**
 * A timeline runs across a wide canvas only when each item's longest word (a run without a break opportunity) fits
 * its column at this share of the largest text size; otherwise ("Jahreshauptversammlung" in a quarter of the width)
 * it runs down, each text beside its time on a row as wide as the canvas allows.
 */
export const ACROSS_WORD_SHARE = 0.75;

/** The runs of a text no line may break inside: words between spaces; each Chinese or Japanese character alone. */
export const unbreakable = (text: string) =>
  text.split(/\s+|(?<=[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])/u).filter(Boolean);
