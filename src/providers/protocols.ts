// The provider protocols a providers file may name. A protocol is one module folder
// (src/providers/<protocol>/) exporting a ProviderProtocol, plus its line here.
import { anthropicProtocol } from './anthropic/adapter.js';
import { localProtocol } from './local/adapter.js';
import { openaiProtocol } from './openai/adapter.js';
import type { ProviderProtocol } from './protocol.js';

export const PROTOCOLS: readonly ProviderProtocol[] = [openaiProtocol, anthropicProtocol, localProtocol];

/** The protocol of this id; undefined when none is registered under it. */
export const protocolOf = (id: string): ProviderProtocol | undefined => PROTOCOLS.find((p) => p.id === id);
