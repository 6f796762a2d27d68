// Pictograms: a subset of Lucide (https://lucide.dev, npm `lucide`, ISC licence), read from the package
// when this module loads — never copied by hand. Lucide icons are drawn on a 24×24 grid as strokes
// (width 2, round caps and joins, no fill), so an engine draws them as outlines in one of the look's
// colours: HyperFrames as inline SVG, Lottie as shape paths (src/engines/lottie/icons.ts).
//
// The subset is the vocabulary the planner picks from by meaning (each language file's `icons`: an icon
// name → the words that mean it) and the names a storyboard request may give (`icon`).
import lucide from 'lucide';

/** One element of an icon: its SVG tag (path, circle, rect, line, polyline, polygon, ellipse) and attributes. */
export type IconElement = [tag: string, attrs: Record<string, string | number>];

/** The icon names a storyboard may use: kebab-case Lucide names. */
export const ICON_NAMES = [
  'accessibility',
  'armchair',
  'arrow-up-down',
  'baby',
  'banknote',
  'bath',
  'battery-full',
  'bed',
  'beef',
  'beer',
  'bell',
  'bike',
  'book-open',
  'briefcase',
  'bus',
  'cake-slice',
  'calendar',
  'camera',
  'car',
  'check',
  'chef-hat',
  'cigarette-off',
  'clapperboard',
  'clock',
  'coffee',
  'cookie',
  'cooking-pot',
  'credit-card',
  'croissant',
  'dices',
  'dog',
  'droplet',
  'dumbbell',
  'egg',
  'film',
  'fish',
  'flame',
  'fuel',
  'gift',
  'graduation-cap',
  'headphones',
  'heart',
  'house',
  'ice-cream-cone',
  'key',
  'landmark',
  'laptop',
  'leaf',
  'library',
  'lock',
  'luggage',
  'mail',
  'map-pin',
  'mic',
  'moon',
  'mountain',
  'music',
  'package',
  'palette',
  'paw-print',
  'phone',
  'pill',
  'pizza',
  'plane',
  'plug',
  'popcorn',
  'printer',
  'sailboat',
  'salad',
  'scissors',
  'shield-check',
  'ship',
  'shirt',
  'shopping-bag',
  'shopping-cart',
  'shower-head',
  'smartphone',
  'snowflake',
  'sparkles',
  'sprout',
  'square-parking',
  'star',
  'stethoscope',
  'sun',
  'tent',
  'thermometer',
  'ticket',
  'train-front',
  'tree-deciduous',
  'tree-palm',
  'trophy',
  'truck',
  'tv',
  'umbrella',
  'users',
  'utensils',
  'washing-machine',
  'waves',
  'waves-ladder',
  'wheat',
  'wifi',
  'wine',
  'wrench',
  'zap',
] as const;

export type IconName = (typeof ICON_NAMES)[number];

const pascal = (name: string) => name.replace(/(^|-)([a-z0-9])/g, (_m, _d, c: string) => c.toUpperCase());

const SET = lucide.icons as unknown as Record<string, IconElement[]>;

/** The icon's elements on its 24×24 grid. */
export const ICONS: ReadonlyMap<string, IconElement[]> = new Map(
  ICON_NAMES.map((name) => {
    const nodes = SET[pascal(name)];
    if (!nodes) throw new Error(`lucide has no icon ${name}`);
    return [name, nodes];
  }),
);

export const isIconName = (name: string): name is IconName => ICONS.has(name);

/** The side of an icon's grid (Lucide: 24) and its stroke width on that grid. */
export const ICON_GRID = 24;
export const ICON_STROKE = 2;
