import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { reasoningRefusal } from "./llm-stub/reasoning-refusal";
import { anthropicBody, bedrockConverseBody, DEFAULT_USAGE, googleBody, openAiBody, responsesBody, type StubUsage } from "./llm-stub/wire-bodies";

export { anthropicBody, bedrockConverseBody, googleBody, openAiBody, responsesBody, type StubUsage } from "./llm-stub/wire-bodies";

/**
 * A local model endpoint for tests: node:http on 127.0.0.1 with an ephemeral port (port 0),
 * speaking every wire protocol the server's providers use, chosen by path:
 *   OpenAI Chat Completions   POST …/chat/completions   (openai, openai-compatible, azure)
 *   OpenAI Responses          POST …/responses
 *   Anthropic Messages        POST …/messages
 *   Bedrock Converse          POST /model/<id>/converse
 *   Gemini                    POST …/models/<id>:generateContent
 * Replies are scripted in order (status, body, latency, dropped connection, a reply held until the
 * client hangs up); when the script is
 * empty each protocol answers with `answer(request)`. Models matching `reasoningModels` refuse
 * max_tokens/temperature with OpenAI's exact HTTP 400. Every request is recorded with its headers
 * and parsed body so tests can check shapes.
 */
export interface StubReply {
  status?: number;
  /** JSON-serialised unless a string. Omitted: the protocol's success body for `text`. */
  body?: unknown;
  text?: string;
  delayMs?: number;
  headers?: Record<string, string>;
  /** Drop the connection without an answer (a network error for the client). */
  drop?: boolean;
  /**
   * Never answer: hold the request until the client closes the connection (cancellation tests),
   * which `closed` records.
   */
  hold?: boolean;
  /** Usage the success body reports (default 11 in, 7 out, 0 cached). */
  usage?: StubUsage;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface LlmStubOptions {
  /** Model names that behave like OpenAI's reasoning models (refuse max_tokens and temperature). */
  reasoningModels?: RegExp;
}

export interface LlmStub {
  baseUrl: string;
  requests: RecordedRequest[];
  /** Held requests whose connection the client closed before any answer (an aborted call). */
  closed: RecordedRequest[];
  /** Resolves once `requests` (or `closed`) holds at least `count` entries: event-driven, no polling. */
  whenRequests(count: number): Promise<void>;
  whenClosed(count: number): Promise<void>;
  script(...replies: StubReply[]): void;
  close(): Promise<void>;
}

type Protocol = "chat" | "responses" | "anthropic" | "bedrock" | "google";

function protocolOf(path: string): Protocol | undefined {
  const bare = path.split("?")[0]!;
  if (bare.endsWith("/chat/completions")) return "chat";
  if (bare.endsWith("/responses")) return "responses";
  if (bare.endsWith("/messages")) return "anthropic";
  if (/^\/model\/[^/]+\/converse$/.test(bare)) return "bedrock";
  if (/\/models\/[^/]+:generateContent$/.test(bare)) return "google";
  return undefined;
}

function successBody(protocol: Protocol, text: string, usage: StubUsage): unknown {
  switch (protocol) {
    case "chat":
      return openAiBody(text, "stub-model", usage);
    case "responses":
      return responsesBody(text, "stub-model", usage);
    case "anthropic":
      return anthropicBody(text, "stub-model", usage);
    case "bedrock":
      return bedrockConverseBody(text, usage);
    case "google":
      return googleBody(text, "stub-model", usage);
  }
}

export async function startLlmStub(answer: (request: RecordedRequest) => string = () => "ok", options: LlmStubOptions = {}): Promise<LlmStub> {
  const requests: RecordedRequest[] = [];
  const closed: RecordedRequest[] = [];
  const queue: StubReply[] = [];
  const waiters: { list: RecordedRequest[]; count: number; resolve: () => void }[] = [];
  const settle = () => {
    for (const waiter of waiters.filter((w) => w.list.length >= w.count)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };
  const when = (list: RecordedRequest[], count: number) =>
    new Promise<void>((resolve) => {
      waiters.push({ list, count, resolve });
      settle();
    });
  const server = createServer((req, res) => void handle(req, res));

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    let body: unknown = raw;
    try {
      body = JSON.parse(raw);
    } catch {
      // keep the raw text: the test will see what was sent
    }
    const request: RecordedRequest = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body };
    requests.push(request);
    settle();
    const protocol = protocolOf(request.path);
    const model = typeof body === "object" && body !== null ? (body as { model?: unknown }).model : undefined;
    const refusal =
      protocol && (protocol === "chat" || protocol === "responses") && typeof model === "string" && options.reasoningModels?.test(model)
        ? reasoningRefusal(request.path, body as Record<string, unknown>)
        : undefined;
    const reply = refusal ?? queue.shift() ?? {};
    if ("delayMs" in reply && reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if ("hold" in reply && reply.hold) {
      // 'close' on the response: the connection went away with no answer written.
      if (!res.destroyed) await new Promise<void>((resolve) => res.once("close", resolve));
      closed.push(request);
      settle();
      return;
    }
    if ("drop" in reply && reply.drop) {
      req.socket.destroy();
      return;
    }
    const scripted = reply as StubReply;
    const status = scripted.status ?? (protocol ? 200 : 404);
    const payload =
      scripted.body ??
      (status === 404 ? { error: "no such route" } : successBody(protocol ?? "chat", scripted.text ?? answer(request), scripted.usage ?? DEFAULT_USAGE));
    if (res.destroyed) return;
    res.writeHead(status, { "content-type": "application/json", ...scripted.headers });
    res.end(typeof payload === "string" ? payload : JSON.stringify(payload));
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    closed,
    whenRequests: (count) => when(requests, count),
    whenClosed: (count) => when(closed, count),
    script: (...replies) => queue.push(...replies),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The system text and the conversation of a recorded request, whatever the protocol: Chat
 * Completions sends strings, Anthropic a `system` array and content blocks, Responses `input`
 * items, Converse and Gemini their own blocks. Lets one scripted answer serve every provider.
 */
export function promptOf(request: RecordedRequest): { system: string; messages: { role: string; content: string }[] } {
  const body = (request.body ?? {}) as Record<string, unknown>;
  const text = (content: unknown): string =>
    typeof content === "string"
      ? content
      : Array.isArray(content)
        ? content.map((c) => (typeof c === "string" ? c : String((c as { text?: unknown }).text ?? ""))).join("\n\n")
        : "";
  const list = (body.messages ?? body.input ?? body.contents ?? []) as { role?: string; content?: unknown; parts?: unknown }[];
  const all = list.map((m) => ({ role: m.role === "model" ? "assistant" : (m.role ?? "user"), content: text(m.content ?? m.parts) }));
  const systemField = body.system ?? (body.systemInstruction as { parts?: unknown } | undefined)?.parts;
  const system =
    systemField !== undefined
      ? text(systemField)
      : all
          .filter((m) => m.role === "system" || m.role === "developer")
          .map((m) => m.content)
          .join("\n\n");
  return { system, messages: all.filter((m) => m.role !== "system" && m.role !== "developer") };
}

/** The stub as the LLM planner's endpoint, priced $2 per million input tokens and $8 per million output (the rollout planner tests). */
export function stubPlannerEnv(stub: LlmStub): Record<string, string> {
  return {
    TRACEFOLD_LLM_PROVIDER: "openai",
    TRACEFOLD_LLM_BASE_URL: `${stub.baseUrl}/v1`,
    TRACEFOLD_LLM_MODEL: "stub-planner",
    TRACEFOLD_LLM_MAX_RETRIES: "0",
    TRACEFOLD_LLM_PRICE_INPUT: "2",
    TRACEFOLD_LLM_PRICE_OUTPUT: "8",
  };
}
