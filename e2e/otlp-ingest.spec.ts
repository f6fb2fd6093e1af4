import { execFileSync } from "node:child_process";
import { gzipSync } from "node:zlib";
import { context, trace, type Attributes } from "@opentelemetry/api";
import { CompressionAlgorithm } from "@opentelemetry/otlp-exporter-base";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtoExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, SimpleSpanProcessor, type ReadableSpan, type SpanExporter } from "@opentelemetry/sdk-trace-base";
import { expect, request as playwrightRequest, test, type APIRequestContext } from "@playwright/test";
import { storageStateOf } from "./fixtures/accounts";
import { E2E_ENV } from "./fixtures/import-session";

/*
 * OTLP/HTTP ingestion as a team running an instrumented agent meets it (issue 15, item 2): an ingest
 * key made with the CLI, the official OpenTelemetry JS exporters (JSON to /v1/traces; protobuf with
 * gzip to /api/v1/otlp/v1/traces) behind a BasicTracerProvider, a small agent loop's GenAI spans,
 * then the session found through the REST API with a read key and opened on its page. Bad input —
 * malformed protobuf, a wrong key, a revoked key — gets a clear answer and writes nothing.
 */
const ORIGIN = `http://127.0.0.1:${process.env.E2E_PORT ?? "3100"}`;

function cli(...args: string[]): string {
  const stdout = execFileSync("npx", ["--no-install", "tsx", "cli/main.ts", ...args], { env: { ...process.env, ...E2E_ENV }, encoding: "utf8" });
  return stdout.trim().split("\n").pop() ?? "";
}
const createKey = (scope: "ingest" | "read") =>
  JSON.parse(cli("keys", "create", "--name", `e2e otlp ${scope} ${Date.now()}`, "--scope", scope, "--json")) as { id: string; key: string };
const counts = () =>
  (
    JSON.parse(
      execFileSync("npx", ["--no-install", "tsx", "e2e/fixtures/db-snapshot.ts"], { env: { ...process.env, ...E2E_ENV }, encoding: "utf8" })
        .trim()
        .split("\n")
        .pop()!,
    ) as { counts: Record<string, number> }
  ).counts;

/** Forwards to the real exporter and keeps each export's result, so the test sees what the studio answered. */
class RecordingExporter implements SpanExporter {
  readonly results: { code: number; error?: Error }[] = [];
  readonly spans: ReadableSpan[] = [];
  constructor(private readonly inner: SpanExporter) {}
  export(spans: ReadableSpan[], done: (result: { code: number; error?: Error }) => void): void {
    this.spans.push(...spans);
    this.inner.export(spans, (result) => {
      this.results.push(result);
      done(result);
    });
  }
  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
}

/**
 * One turn of a weather agent in the current GenAI conventions: the agent span names the
 * conversation; a chat span asks for a tool, the tool runs, a second chat span answers. Spans end
 * child-first, so the exporter sends them in an order other than the session's.
 */
function runAgentLoop(provider: BasicTracerProvider, conversationId: string): void {
  const tracer = provider.getTracer("weather-agent", "1.0.0");
  const agent = tracer.startSpan("invoke_agent weather", {
    attributes: { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "weather", "gen_ai.conversation.id": conversationId },
  });
  const parent = trace.setSpan(context.active(), agent);
  const user = { role: "user", parts: [{ type: "text", content: `Weather in Paris? (${conversationId})` }] };
  const call = { role: "assistant", parts: [{ type: "tool_call", id: "call_w1", name: "get_weather", arguments: { city: "Paris" } }] };
  const result = { role: "tool", parts: [{ type: "tool_call_response", id: "call_w1", response: "18°C, cloudy" }] };
  const answer = { role: "assistant", parts: [{ type: "text", content: "It is 18°C and cloudy in Paris." }] };
  const child = (name: string, attributes: Attributes) => tracer.startSpan(name, { attributes }, parent).end();
  child("chat gpt-4o", {
    "gen_ai.operation.name": "chat",
    "gen_ai.request.model": "gpt-4o",
    "gen_ai.input.messages": JSON.stringify([user]),
    "gen_ai.output.messages": JSON.stringify([call]),
    "gen_ai.usage.input_tokens": 31,
  });
  child("execute_tool get_weather", {
    "gen_ai.operation.name": "execute_tool",
    "gen_ai.tool.name": "get_weather",
    "gen_ai.tool.call.id": "call_w1",
    "gen_ai.tool.call.result": "18°C, cloudy",
  });
  child("chat gpt-4o", {
    "gen_ai.operation.name": "chat",
    "gen_ai.request.model": "gpt-4o",
    "gen_ai.input.messages": JSON.stringify([user, call, result]),
    "gen_ai.output.messages": JSON.stringify([answer]),
  });
  child("GET /healthz", { "http.request.method": "GET" }); // no GenAI content: rejected under partial success
  agent.end();
}

let read: APIRequestContext;
let bare: APIRequestContext;

test.beforeAll(async () => {
  read = await playwrightRequest.newContext({
    baseURL: ORIGIN,
    extraHTTPHeaders: { authorization: `Bearer ${createKey("read").key}` },
    storageState: { cookies: [], origins: [] },
  });
  bare = await playwrightRequest.newContext({ baseURL: ORIGIN, storageState: { cookies: [], origins: [] } });
});

test.afterAll(async () => {
  await read?.dispose();
  await bare?.dispose();
});

interface ListedSession {
  id: string;
  externalId: string;
  format: string;
  messages: number;
  toolCalls: number;
}
const findSession = async (conversationId: string): Promise<ListedSession[]> => {
  const response = await read.get(`/api/v1/sessions?q=${encodeURIComponent(conversationId)}`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: ListedSession[] }).data.filter((s) => s.externalId === conversationId);
};

for (const variant of [
  {
    name: "JSON to /v1/traces",
    path: "/v1/traces",
    make: (url: string, key: string) => new JsonExporter({ url, headers: { Authorization: `Bearer ${key}` } }),
  },
  {
    name: "protobuf with gzip to /api/v1/otlp/v1/traces",
    path: "/api/v1/otlp/v1/traces",
    make: (url: string, key: string) => new ProtoExporter({ url, headers: { Authorization: `Bearer ${key}` }, compression: CompressionAlgorithm.GZIP }),
  },
]) {
  test.describe(`the official OTLP exporter, ${variant.name}`, () => {
    test.use({ storageState: storageStateOf("viewer") });

    test("an instrumented agent loop becomes one session, listed by the API and shown on its page", async ({ page }) => {
      const conversationId = `otlp-e2e-${variant.path.length}-${Date.now()}`;
      const exporter = new RecordingExporter(variant.make(`${ORIGIN}${variant.path}`, createKey("ingest").key));
      const provider = new BasicTracerProvider({
        resource: resourceFromAttributes({ "service.name": "weather-agent" }),
        spanProcessors: [new SimpleSpanProcessor(exporter)],
      });
      runAgentLoop(provider, conversationId);
      await provider.forceFlush();
      await provider.shutdown();
      expect(exporter.results.length).toBe(5);
      expect(exporter.results.map((r) => r.error?.message ?? r.code)).toEqual([0, 0, 0, 0, 0]);

      const sessions = await findSession(conversationId);
      expect(sessions).toHaveLength(1);
      expect(sessions[0]).toMatchObject({ format: "otel_genai_spans", messages: 4, toolCalls: 1 });

      await page.goto(`/sessions/${sessions[0]!.id}`);
      await expect(page.getByText(`Weather in Paris? (${conversationId})`).first()).toBeVisible();
      await expect(page.getByText("It is 18°C and cloudy in Paris.").first()).toBeVisible();

      // The same spans sent again in one batch (a retry after a lost answer): nothing changes.
      const again = new RecordingExporter(variant.make(`${ORIGIN}${variant.path}`, createKey("ingest").key));
      const before = counts();
      await new Promise<void>((done) => again.export(exporter.spans, () => done()));
      expect(again.results.map((r) => r.error?.message ?? r.code)).toEqual([0]);
      expect(await findSession(conversationId)).toEqual(sessions);
      expect(counts()).toEqual(before);
      await again.shutdown();
    });
  });
}

test("a span without GenAI attributes is rejected under OTLP partial success; a repeated delivery changes nothing", async () => {
  const key = createKey("ingest").key;
  const ingest = await playwrightRequest.newContext({
    baseURL: ORIGIN,
    extraHTTPHeaders: { authorization: `Bearer ${key}` },
    storageState: { cookies: [], origins: [] },
  });
  const conversationId = `otlp-e2e-partial-${Date.now()}`;
  const attr = (k: string, v: string) => ({ key: k, value: { stringValue: v } });
  const traceId = Date.now().toString(16).padStart(32, "0");
  const body = {
    resourceSpans: [
      {
        resource: { attributes: [attr("service.name", "partial")] },
        scopeSpans: [
          {
            spans: [
              {
                traceId,
                spanId: "00000000000000a1",
                name: "chat",
                startTimeUnixNano: "1750000000000000000",
                attributes: [
                  attr("gen_ai.conversation.id", conversationId),
                  attr("gen_ai.operation.name", "chat"),
                  attr("gen_ai.prompt.0.role", "user"),
                  attr("gen_ai.prompt.0.content", "hello"),
                  attr("gen_ai.completion.0.role", "assistant"),
                  attr("gen_ai.completion.0.content", "hi there"),
                ],
              },
              {
                traceId,
                spanId: "00000000000000a2",
                name: "GET /",
                startTimeUnixNano: "1750000000000000001",
                attributes: [attr("http.request.method", "GET")],
              },
            ],
          },
        ],
      },
    ],
  };
  const first = await ingest.post("/v1/traces", { data: body });
  expect(first.status()).toBe(200);
  expect(await first.json()).toEqual({ partialSuccess: { rejectedSpans: 1, errorMessage: expect.stringContaining("no GenAI attribute") } });
  const sessions = await findSession(conversationId);
  expect(sessions).toHaveLength(1);
  expect(sessions[0]!.messages).toBe(2);
  const before = counts();
  const again = await ingest.post("/v1/traces", {
    data: gzipSync(JSON.stringify(body)),
    headers: { "content-type": "application/json", "content-encoding": "gzip" },
  });
  expect(again.status()).toBe(200);
  expect(counts()).toEqual(before);
  expect(await findSession(conversationId)).toEqual(sessions);
  await ingest.dispose();
});

test("malformed protobuf, malformed JSON, a wrong key and a revoked key get clear answers and write nothing", async () => {
  const made = createKey("ingest");
  const ingest = await playwrightRequest.newContext({
    baseURL: ORIGIN,
    extraHTTPHeaders: { authorization: `Bearer ${made.key}` },
    storageState: { cookies: [], origins: [] },
  });
  const before = counts();

  const protobuf = await ingest.post("/v1/traces", {
    data: Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01]),
    headers: { "content-type": "application/x-protobuf" },
  });
  expect(protobuf.status()).toBe(400);
  expect(await protobuf.json()).toMatchObject({ ok: false, code: "malformed_protobuf", message: expect.stringContaining("ExportTraceServiceRequest") });

  const badId = await ingest.post("/v1/traces", { data: { resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: "xyz", spanId: "00000000000000a1" }] }] }] } });
  expect(badId.status()).toBe(400);
  expect((await badId.json()).message).toContain("resourceSpans[0].scopeSpans[0].spans[0].traceId");

  const notJson = await ingest.post("/v1/traces", { data: Buffer.from("{not json"), headers: { "content-type": "application/json" } });
  expect(notJson.status()).toBe(400);
  expect(await notJson.json()).toMatchObject({ code: "malformed_json" });

  const wrong = await bare.post("/v1/traces", { data: { resourceSpans: [] }, headers: { authorization: `Bearer tfk_${"0".repeat(43)}` } });
  expect(wrong.status()).toBe(401);
  expect(await wrong.json()).toMatchObject({ code: "invalid_key" });

  cli("keys", "revoke", made.id, "--json");
  const revoked = await ingest.post("/v1/traces", { data: { resourceSpans: [] } });
  expect(revoked.status()).toBe(401);
  expect((await revoked.json()).message).toMatch(/revoked/i);

  expect(counts()).toEqual({ ...before, revokedApiKeys: before.revokedApiKeys! + 1 });
  await ingest.dispose();
});

test("who may send: an ingest key or a reviewer's session; a read key, a viewer and anonymous callers may not", async () => {
  const probe = { resourceSpans: "not a list" }; // refused by validation once past the role check: nothing stored
  const as = async (options: { key?: string; who?: "viewer" | "reviewer" }) => {
    const ctx = await playwrightRequest.newContext({
      baseURL: ORIGIN,
      storageState: options.who ? storageStateOf(options.who) : { cookies: [], origins: [] },
      extraHTTPHeaders: { origin: ORIGIN, ...(options.key ? { authorization: `Bearer ${options.key}` } : {}) },
    });
    const statuses = [];
    for (const path of ["/v1/traces", "/api/v1/otlp/v1/traces"]) statuses.push((await ctx.post(path, { data: probe })).status());
    await ctx.dispose();
    return statuses;
  };
  const before = counts();
  expect(await as({ key: createKey("ingest").key })).toEqual([400, 400]);
  expect(await as({ key: createKey("read").key })).toEqual([403, 403]);
  expect(await as({ who: "reviewer" })).toEqual([400, 400]);
  expect(await as({ who: "viewer" })).toEqual([403, 403]);
  expect(await as({})).toEqual([401, 401]);
  expect(counts().otlpSpans).toBe(before.otlpSpans);
});
