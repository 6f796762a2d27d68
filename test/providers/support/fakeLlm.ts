// Local HTTP servers speaking the two chat protocols like the real services do (paths, auth headers,
// request checks, response and error bodies, usage fields), scripted step by step per test.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Tokens = { input: number; output: number };

export type Step =
  /** A normal answer; `usage: null` leaves the usage object out (some self-hosted servers). */
  | { reply: string; usage: Tokens | null; finish?: string }
  /** An HTTP error with the protocol's error body. */
  | { status: number; message: string; code?: string }
  /** A 200 refusal: OpenAI `message.refusal`, Anthropic `stop_reason: "refusal"`. */
  | { refuse: string; usage: Tokens }
  /** Never answers (the caller's timeout must fire). */
  | { hang: true };

export type RecordedRequest = { method: string; path: string; headers: http.IncomingHttpHeaders; body: any };

export type Protocol = 'openai' | 'anthropic';

const ANTHROPIC_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

export class FakeLlm {
  readonly requests: RecordedRequest[] = [];
  private steps: Step[] = [];
  private server = http.createServer((req, res) => void this.handle(req, res));
  port = 0;

  constructor(
    readonly protocol: Protocol,
    readonly apiKey: string,
  ) {}

  /** base_url for the registry: both protocols live under /v1. */
  get baseUrl() {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** Replaces the script and forgets earlier requests. */
  script(...steps: Step[]): this {
    this.steps = steps;
    this.requests.length = 0;
    return this;
  }

  async close() {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: any = null;
    try {
      body = JSON.parse(raw);
    } catch {
      // checked below
    }
    const path = req.url ?? '';
    const expected = this.protocol === 'openai' ? '/v1/chat/completions' : '/v1/messages';
    if (req.method !== 'POST' || path !== expected)
      return this.error(res, 404, `Unknown request URL: ${req.method} ${path}`);
    if (!this.authorized(req)) return this.error(res, 401, 'Invalid API key');
    if (this.protocol === 'anthropic' && !req.headers['anthropic-version'])
      return this.error(res, 400, 'anthropic-version: header is required');
    const problem = this.checkBody(body);
    if (problem) return this.error(res, 400, problem);

    this.requests.push({ method: req.method, path, headers: req.headers, body });
    const step = this.steps.shift();
    if (!step) return this.error(res, 500, 'fake LLM: unscripted request');
    if ('hang' in step) return; // the connection stays open until the caller gives up
    if ('status' in step) return this.error(res, step.status, step.message, step.code);
    if ('refuse' in step) return this.json(res, 200, this.completion(body.model, null, step.usage, step.refuse));
    return this.json(res, 200, this.completion(body.model, step.reply, step.usage, null, step.finish));
  }

  private authorized(req: http.IncomingMessage) {
    if (this.protocol === 'anthropic') return req.headers['x-api-key'] === this.apiKey;
    return req.headers.authorization === `Bearer ${this.apiKey}`;
  }

  private checkBody(body: any): string | null {
    if (!body || typeof body !== 'object') return 'The request body is not valid JSON';
    if (typeof body.model !== 'string') return 'model: field required';
    if (!Array.isArray(body.messages) || body.messages.length === 0)
      return 'messages: at least one message is required';
    if (this.protocol === 'openai') {
      // As OpenAI answers: reasoning (o-series) models take only max_completion_tokens, and never both fields.
      if (body.max_tokens !== undefined && body.max_completion_tokens !== undefined) {
        return "max_tokens and max_completion_tokens cannot both be set; use 'max_completion_tokens'";
      }
      if (/^o\d/.test(body.model) && body.max_tokens !== undefined) {
        return (
          "Unsupported parameter: 'max_tokens' is not supported with this model. " +
          "Use 'max_completion_tokens' instead."
        );
      }
    }
    if (this.protocol === 'anthropic') {
      if (!Number.isInteger(body.max_tokens)) return 'max_tokens: Field required';
      if (body.messages[0].role !== 'user') return 'messages: first message must use the "user" role';
      if (body.messages.some((m: any) => m.role === 'system'))
        return 'messages: Unexpected role "system"; use the top-level system parameter';
    }
    return null;
  }

  private completion(
    model: string,
    text: string | null,
    usage: Tokens | null,
    refusal: string | null,
    finish?: string,
  ) {
    if (this.protocol === 'openai') {
      return {
        id: `chatcmpl-${crypto.randomBytes(6).toString('hex')}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: text, refusal },
            logprobs: null,
            finish_reason: finish ?? 'stop',
          },
        ],
        ...(usage && {
          usage: {
            prompt_tokens: usage.input,
            completion_tokens: usage.output,
            total_tokens: usage.input + usage.output,
          },
        }),
      };
    }
    return {
      id: `msg_${crypto.randomBytes(6).toString('hex')}`,
      type: 'message',
      role: 'assistant',
      model,
      content: text === null ? [] : [{ type: 'text', text }],
      stop_reason: refusal ? 'refusal' : (finish ?? 'end_turn'),
      stop_sequence: null,
      ...(usage && { usage: { input_tokens: usage.input, output_tokens: usage.output } }),
    };
  }

  private error(res: http.ServerResponse, status: number, message: string, code?: string) {
    const body =
      this.protocol === 'openai'
        ? {
            error: {
              message,
              type: status >= 500 ? 'server_error' : 'invalid_request_error',
              param: null,
              code: code ?? null,
            },
          }
        : { type: 'error', error: { type: code ?? ANTHROPIC_ERROR_TYPES[status] ?? 'api_error', message } };
    this.json(res, status, body);
  }

  private json(res: http.ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }
}

/** A port nothing listens on (connection refused). */
export async function closedPortUrl(): Promise<string> {
  const srv = http.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as AddressInfo;
  await new Promise((r) => srv.close(r));
  return `http://127.0.0.1:${port}/v1`;
}

/** The text of every part of a request's messages (both protocols), joined. */
export function messageTexts(body: any): string[] {
  return body.messages.map((m: any) =>
    typeof m.content === 'string'
      ? m.content
      : m.content
          .filter((p: any) => p.type === 'text')
          .map((p: any) => p.text)
          .join('\n'),
  );
}

/** The system prompt of a request (OpenAI: first message; Anthropic: `system`). */
export function systemPrompt(body: any): string {
  return typeof body.system === 'string' ? body.system : body.messages[0].content;
}

/** A reply wrapping a composition in prose and a code fence, as chat models answer. */
export const fenced = (source: string, lang: string) =>
  `Here is the composition.\n\n\`\`\`${lang}\n${source}\n\`\`\`\n\nEnjoy!`;
