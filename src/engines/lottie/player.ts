// dotlottie-web (ThorVG compiled to WASM) running in Node, without a browser or canvas: it renders
// into an RGBA buffer. Its loader fetches the WASM from a CDN by default; here every fetch it makes
// is answered with the bytes packaged in node_modules, and anything else fails.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { DotLottie } from '@lottiefiles/dotlottie-web';
import { outlineText } from './text.js';
import type { LottieAnimation } from './validate.js';

const LOCAL_WASM_URL = 'http://dotlottie.local.invalid/dotlottie-player.wasm';
let wasmInstalled = false;

function installLocalWasm() {
  if (wasmInstalled) return;
  const dist = path.dirname(createRequire(import.meta.url).resolve('@lottiefiles/dotlottie-web'));
  const wasm = fs.readFileSync(path.join(dist, 'dotlottie-player.wasm'));
  // Only render processes load this module: nothing else in them needs the network.
  globalThis.fetch = async (input: string | URL | Request) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url !== LOCAL_WASM_URL) throw new Error(`network access is disabled in render processes (${url})`);
    return new Response(wasm, { headers: { 'content-type': 'application/wasm' } });
  };
  DotLottie.setWasmUrl(LOCAL_WASM_URL);
  wasmInstalled = true;
}

/** Compiles the WASM ahead of the first animation (a spare render process does it while idle). */
export function preloadPlayer(): Promise<void> {
  installLocalWasm();
  return DotLottie.preload();
}

export type LottiePlayer = {
  /** Number of Lottie frames (op − ip); frame 0 is the in point. */
  totalFrames: number;
  /** RGBA pixels (not premultiplied) of `frame`, a view into WASM memory valid until the next call. */
  render(frame: number): Uint8Array;
  destroy(): void;
};

/** `json`: the animation's own source, when the caller has it (otherwise it is serialised here, once). */
export async function loadPlayer(
  animation: LottieAnimation,
  json: string | undefined,
  size: { width: number; height: number },
): Promise<LottiePlayer> {
  installLocalWasm();
  // Text is shaped by HarfBuzz and drawn as outlines (ThorVG does not shape text).
  const data = outlineText(animation) || json === undefined ? JSON.stringify(animation) : json;
  const player = new DotLottie({
    canvas: { width: size.width, height: size.height },
    data,
    autoplay: false,
    loop: false,
    useFrameInterpolation: true, // output fps may differ from the animation's: render fractional frames
    layout: { fit: 'contain', align: [0.5, 0.5] },
  });
  await new Promise<void>((resolve, reject) => {
    player.addEventListener('load', () => resolve());
    player.addEventListener('loadError', (e) =>
      reject(
        new Error(
          `Lottie player could not load the animation: ${String((e as { error?: unknown }).error ?? 'unknown error')}`,
        ),
      ),
    );
  });
  return {
    totalFrames: player.totalFrames,
    render(frame) {
      player.setFrame(frame);
      const buffer = player.buffer;
      if (!buffer) throw new Error('Lottie player produced no frame');
      return buffer;
    },
    destroy: () => player.destroy(),
  };
}
