#!/usr/bin/env node
// Runs Node with the given arguments on the Node LTS this project targets (NODE_LTS_VERSION in
// install.mjs: this machine's Node when it is that major, else the official build from the npm
// registry, installed once). `npm start`, `npm run cluster` and `npm test` go through it, so the
// service and its tests run on the Node the image ships. Signals reach the child; its exit is ours.
import { spawn } from 'node:child_process';
import os from 'node:os';
import { ensureNodeLts } from './install.mjs';

const child = spawn(ensureNodeLts(), process.argv.slice(2), { stdio: 'inherit' });
// A terminal's Ctrl-C reaches the child itself (same process group): wait for it to finish.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => child.kill('SIGTERM'));
child.on('exit', (code, signal) => process.exit(code ?? 128 + (os.constants.signals[signal] ?? 0)));
