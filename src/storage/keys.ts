// The storage layout: every key the service stores under is built by a function of this module, and
// nothing else spells one out. Keys are relative paths like `generations/gen_abc/video.mp4`: they
// become file paths (local driver) and object keys (S3), so only a safe alphabet is accepted.
// A leaf (it imports nothing): the workflows build asset keys with it too.
//
//   generations/<id>/assets/<name>              the request's media and the brand logo, as the composition names them
//   generations/<id>/storyboard.json            the storyboard drawn (sent, or planned by the embedded composer)
//   generations/<id>/compositions/<n>.<ext>     every draft of the composition; the rendered one is the artifact
//   generations/<id>/chunks/<index>.mp4         the chunks of a long video, until they are joined
//   generations/<id>/video.mp4                  the video (video.webm, video.gif: as output_format asks)
//   generations/<id>/poster.jpg                 its poster frame
//   generations/<id>/thumbnail.jpg              its thumbnail: a full-size frame with the title fully drawn
//   generations/<id>/spritesheet.jpg            its sprite sheet: a grid of evenly spaced frames (src/video/frames.ts)
//   generations/<id>/speech/narration.json      what the voice says when (the spoken clips' manifest)
//   generations/<id>/speech/<n>.<ext>           each spoken clip, kept so a retried mix never speaks twice
//   generations/<id>/captions.vtt               the narration's captions (WebVTT), linked as `captions_url`
//   brand/<organization id>/logo-<digest>.<ext> an organization's logo, named by its content
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;
const MAX_KEY_LENGTH = 512;

const GENERATIONS = 'generations';

export function isValidKey(key: string): boolean {
  return (
    typeof key === 'string' &&
    key.length > 0 &&
    key.length <= MAX_KEY_LENGTH &&
    key.split('/').every((s) => SEGMENT.test(s))
  );
}

export function assertValidKey(key: string): void {
  if (!isValidKey(key)) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
}

/** The key as a URL path (each segment percent-encoded; the alphabet makes this a no-op today). */
export const keyToUrlPath = (key: string) => key.split('/').map(encodeURIComponent).join('/');

const generationKey = (generationId: string, file: string) => `${GENERATIONS}/${generationId}/${file}`;

/** A generation's media asset; compositions refer to it as `assets/<name>`. */
export const mediaAssetKey = (generationId: string, name: string) => generationKey(generationId, `assets/${name}`);

/**
 * A generation's storyboard (JSON, public form): the one a storyboard request sent, or the one the
 * embedded composer planned. Linked as `storyboard_url`.
 */
export const storyboardKey = (generationId: string) => generationKey(generationId, 'storyboard.json');

/**
 * One draft of a generation's composition (`extension`: the engine's artifact's), written once by the activity that got
 * it.
 */
export const compositionKey = (generationId: string, draftNumber: number, extension: string) =>
  generationKey(generationId, `compositions/${draftNumber}.${extension}`);

/** One chunk of a generation's video, kept until the chunks are joined. */
export const chunkKey = (generationId: string, index: number) => generationKey(generationId, `chunks/${index}.mp4`);

/** A generation's video: an MP4, or the file `output_format` asked for (`webm`, `gif`). */
export const videoKey = (generationId: string, format: 'mp4' | 'webm' | 'gif' = 'mp4') =>
  generationKey(generationId, `video.${format}`);

/** The manifest of a generation's spoken narration (JSON: clips, their times and texts). */
export const narrationKey = (generationId: string) => generationKey(generationId, 'speech/narration.json');

/** One spoken clip of a generation's narration (WAV or whatever the provider answered). */
export const speechClipKey = (generationId: string, index: number) =>
  generationKey(generationId, `speech/${index}.audio`);

/** The picture as rendered, kept before captions are drawn on it: a retried mix draws them on this again. */
export const uncaptionedVideoKey = (generationId: string) => generationKey(generationId, 'speech/uncaptioned.mp4');

/** A generation's captions (WebVTT): one cue per spoken phrase. */
export const captionsKey = (generationId: string) => generationKey(generationId, 'captions.vtt');

/** A generation's poster frame (a JPEG stored beside the video by the render activity). */
export const posterKey = (generationId: string) => generationKey(generationId, 'poster.jpg');

/** A generation's thumbnail (a JPEG of the frame where the title is fully drawn, at the video's size). */
export const thumbnailKey = (generationId: string) => generationKey(generationId, 'thumbnail.jpg');

/** A generation's sprite sheet (a JPEG grid of evenly spaced frames; layout in src/video/frames.ts). */
export const spritesheetKey = (generationId: string) => generationKey(generationId, 'spritesheet.jpg');

/**
 * An organization's brand logo, named by a digest of its bytes (a new logo never overwrites one a generation copied).
 */
export const brandLogoKey = (organizationId: string, digest: string, extension: string) =>
  `brand/${organizationId}/logo-${digest}.${extension}`;

/** The generation a key belongs to, or null for a key of no generation. */
export function generationOfKey(key: string): string | null {
  const parts = key.split('/');
  return parts.length >= 3 && parts[0] === GENERATIONS ? parts[1]! : null;
}
