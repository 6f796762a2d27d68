// What LLM providers are told of the organization's brand kit: its colours, type style and logo (by its
// assets/ path) as constraints in the system prompt of both the expansion and the composition calls,
// the logo listed with the media as the brand's, never as the requester's image.
import { describe, expect, it } from 'vitest';
import { compositionChat, expansionChat } from '../../src/providers/prompts.js';
import type { BrandSnapshot, MediaAsset } from '../../src/shared.js';

const logo: MediaAsset = {
  name: 'brand-logo.png',
  kind: 'image',
  mediaType: 'image/png',
  bytes: 18_000,
  width: 640,
  height: 200,
  durationSeconds: null,
};
const brand: BrandSnapshot = {
  colors: { background: '#0b1f3a', text: '#ffffff', accent: '#ff7a1a' },
  font: 'serif',
  logo,
  logo_on_closing: true,
};
const task = (b: BrandSnapshot | null) => ({
  engine: 'lottie',
  width: 320,
  height: 180,
  durationSeconds: 4,
  brief: { text: 'A launch teaser', media: [], instructions: null, assets: b?.logo ? [b.logo] : [], brand: b },
  repair: null,
});

describe('the brand kit in the provider guide', () => {
  it('composition and expansion system prompts carry the colours, the type style and the logo by name', () => {
    for (const chat of [compositionChat(task(brand), []), expansionChat(task(brand), [])]) {
      expect(chat.system).toContain(
        "## Brand (the organization's brand kit: follow it unless the request says otherwise)",
      );
      expect(chat.system).toContain('- Background colour: #0b1f3a (fill the whole canvas with it).');
      expect(chat.system).toContain('- Text colour: #ffffff.');
      expect(chat.system).toContain('- Accent colour: #ff7a1a (highlights, shapes, buttons).');
      expect(chat.system).toContain('- Type: a serif face (serif) for all text.');
      expect(chat.system).toContain(
        '- Logo: assets/brand-logo.png (640×200); show it, whole and undistorted, on the closing scene.',
      );
      const text = (chat.messages[0]!.content[0] as { text: string }).text;
      expect(text).toContain("- assets/brand-logo.png — image/png, 640×200, 18 KB, the organization's brand logo");
      expect(text).not.toContain("the requester's input image");
    }
  });

  it('only what the kit sets; nothing without a kit', () => {
    const partial = compositionChat(
      task({
        ...brand,
        colors: { background: null, text: null, accent: '#ff7a1a' },
        font: null,
        logo_on_closing: false,
      }),
      [],
    ).system;
    expect(partial).toContain('- Accent colour: #ff7a1a');
    expect(partial).not.toContain('Background colour');
    expect(partial).not.toContain('- Type:');
    expect(partial).toContain('- Logo: assets/brand-logo.png is available; it need not appear.');
    expect(compositionChat(task(null), []).system).not.toContain('## Brand');
  });
});
