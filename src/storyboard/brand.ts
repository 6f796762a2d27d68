// A brand kit applied to a storyboard: the kit's colours and type style set the look, and the logo
// (one of the generation's assets) goes on the closing scene when the kit says so.
import type { BrandSnapshot } from '../shared.js';
import { brandLook } from './look.js';
import type { Storyboard } from './types.js';

export function withBrand(sb: Storyboard, brand: BrandSnapshot | null | undefined): Storyboard {
  if (!brand) return sb;
  return { ...sb, look: brandLook(sb.look, brand), logo: brand.logo_on_closing && brand.logo ? brand.logo.name : null };
}
