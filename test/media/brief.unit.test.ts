// What the LLM is told about the requester's media: each stored asset with its path, type, size and
// origin; models that can look at images still get the original https URLs as parts.
import { describe, expect, it } from 'vitest';
import { assetList, compositionChat, expansionChat } from '../../src/providers/prompts.js';
import type { MediaAsset } from '../../src/shared.js';

const photo: MediaAsset = {
  name: 'image-1.jpg',
  kind: 'image',
  mediaType: 'image/jpeg',
  bytes: 340_000,
  width: 1200,
  height: 800,
  durationSeconds: null,
};
const drawn: MediaAsset = {
  name: 'image-2.png',
  kind: 'image',
  mediaType: 'image/png',
  bytes: 5_300,
  width: 64,
  height: 64,
  durationSeconds: null,
};
const clip: MediaAsset = {
  name: 'video-1.mp4',
  kind: 'video',
  mediaType: 'video/mp4',
  bytes: 8_200_000,
  width: 1920,
  height: 1080,
  durationSeconds: 12.5,
};
const brief = {
  text: 'A launch teaser',
  media: [
    { kind: 'image' as const, url: 'https://cdn.example.com/photo.jpg' },
    { kind: 'image' as const, url: 'asset:image-2.png' },
    { kind: 'video' as const, url: 'https://cdn.example.com/clip.mp4' },
  ],
  instructions: null,
  assets: [photo, drawn, clip],
};
const LIST = [
  'Media you can use (files served with the composition: refer to each by its path exactly as written, ' +
    'never by a remote URL):',
  "- assets/image-1.jpg — image/jpeg, 1200×800, 340 KB, the requester's input image 1",
  "- assets/image-2.png — image/png, 64×64, 5 KB, the requester's input image 2",
  "- assets/video-1.mp4 — video/mp4, 1920×1080, 12.5 s, 8.2 MB, the requester's input video 1",
].join('\n');

describe('the media in the brief', () => {
  it('a text-only model: the assets listed after the prompt, no URL parts, no "reference" URLs', () => {
    const chat = compositionChat(
      { engine: 'hyperframes', width: 160, height: 284, durationSeconds: null, brief, repair: null },
      [],
    );
    expect(chat.messages[0]!.content).toEqual([{ type: 'text', text: `A launch teaser\n\n${LIST}` }]);
    expect(chat.system).toContain(
      "- Media: show the requester's files listed with the request, by their assets/<name> paths.",
    );
  });

  it('a vision model also gets the https originals (not the data: URL image) as parts, marked in the list', () => {
    const chat = compositionChat(
      { engine: 'hyperframes', width: 160, height: 284, durationSeconds: null, brief, repair: null },
      ['image'],
    );
    const [first, ...parts] = chat.messages[0]!.content;
    expect(parts).toEqual([{ type: 'image', url: 'https://cdn.example.com/photo.jpg' }]);
    expect((first as { text: string }).text).toContain(
      "- assets/image-1.jpg — image/jpeg, 1200×800, 340 KB, the requester's input image 1, attached below\n",
    );
    expect((first as { text: string }).text).toContain("the requester's input image 2\n");
  });

  it('the expansion is told the media are available and to place them by path', () => {
    const chat = expansionChat({ engine: 'hyperframes', width: 1080, height: 1920, durationSeconds: null, brief }, []);
    expect(chat.system).toContain('naming it by its assets/ path');
    expect((chat.messages[0]!.content[0] as { text: string }).text).toContain(LIST);
  });

  it('assetList alone', () => {
    expect(assetList([photo])).toBe(`${LIST.split('\n')[0]}\n${LIST.split('\n')[1]}`);
  });
});
