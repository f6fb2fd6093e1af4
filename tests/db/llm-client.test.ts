import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createLlmClient } from "../../server/llm/client";
import { LlmConfigError, readLlmConfig, type LlmConfig } from "../../server/llm/config";
import { LlmError } from "../../server/llm/errors";
import { startLlmStub, type LlmStub } from "../helpers/llm-stub-server";

let stub: LlmStub;
before(async () => {
  stub = await startLlmStub((r) => `answer to ${(r.body as { model: string }).model}`);
});
after(() => stub.close());

const KEY = "sk-test-secret-123";
const config = (over: Partial<LlmConfig> = {}): LlmConfig => ({
  provider: "openai",
  baseUrl: `${stub.baseUrl}/v1`,
  apiKey: KEY,
  model: "gpt-test",
  timeoutMs: 2_000,
  maxRetries: 2,
  reasoning: "auto",
  ...over,
});
const request = {
  messages: [
    { role: "system" as const, content: "Plan." },
    { role: "user" as const, content: "Prefix…" },
  ],
  maxTokens: 300,
  temperature: 0,
  purpose: "planner" as const,
};
const noWait = { sleep: async () => {}, random: () => 0.5 };

test("openai: POST {baseUrl}/chat/completions through the AI SDK with a bearer key and the chat body", async () => {
  const before = stub.requests.length;
  const response = await createLlmClient(config()).complete(request);
  const sent = stub.requests[before]!;
  assert.equal(sent.method, "POST");
  assert.equal(sent.path, "/v1/chat/completions");
  assert.equal(sent.headers.authorization, `Bearer ${KEY}`);
  assert.equal(sent.headers["content-type"], "application/json");
  assert.deepEqual(sent.body, { model: "gpt-test", messages: request.messages, max_tokens: 300, temperature: 0 });
  assert.deepEqual(response, { text: "answer to gpt-test", model: "stub-model", inputTokens: 11, outputTokens: 7, cachedInputTokens: 0 });
});

test("openai without a key (a local server) sends no Authorization header", async () => {
  const before = stub.requests.length;
  const { apiKey: _key, ...keyless } = config();
  await createLlmClient(keyless).complete(request);
  assert.equal(stub.requests[before]!.headers.authorization, undefined);
});

test("anthropic: POST {baseUrl}/v1/messages with x-api-key, anthropic-version and a top-level system", async () => {
  const before = stub.requests.length;
  const client = createLlmClient(config({ provider: "anthropic", baseUrl: stub.baseUrl, model: "claude-sonnet-4-5" }));
  assert.equal(client.id, "anthropic:claude-sonnet-4-5");
  const response = await client.complete({ ...request, messages: [...request.messages, { role: "user", content: "More." }] });
  const sent = stub.requests[before]!;
  assert.equal(sent.path, "/v1/messages");
  assert.equal(sent.headers["x-api-key"], KEY);
  assert.equal(sent.headers["anthropic-version"], "2023-06-01");
  assert.equal(sent.headers.authorization, undefined);
  const body = sent.body as {
    model: string;
    max_tokens: number;
    system: { text: string }[];
    messages: { role: string; content: { text: string }[] }[];
    temperature: number;
  };
  assert.deepEqual([body.model, body.max_tokens, body.temperature], ["claude-sonnet-4-5", 300, 0]);
  assert.deepEqual(
    body.system.map((b) => b.text),
    ["Plan."],
  );
  assert.deepEqual(
    body.messages.map((m) => [m.role, m.content.map((c) => c.text)]),
    [["user", ["Prefix…", "More."]]],
  );
  assert.equal(response.text, "answer to claude-sonnet-4-5");
});

test("a cancelled request stops at once and is not retried", async () => {
  const before = stub.requests.length;
  stub.script({ delayMs: 2_000 });
  const controller = new AbortController();
  const call = createLlmClient(config(), noWait).complete({ ...request, signal: controller.signal });
  await waitFor(() => stub.requests.length > before);
  controller.abort();
  await assert.rejects(call, (e: unknown) => e instanceof LlmError && e.code === "cancelled");
  assert.equal(stub.requests.length - before, 1);
  stub.script();
});

/** Polls a condition on the event loop (no fixed sleep): the stub records a request before answering. */
async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

test("a 500 is retried with backoff and the next success is returned", async () => {
  const before = stub.requests.length;
  const waits: number[] = [];
  stub.script({ status: 500, body: { error: "overloaded" } }, { status: 503, body: "busy" });
  const response = await createLlmClient(config(), { sleep: async (ms) => void waits.push(ms), random: () => 0.5 }).complete(request);
  assert.equal(response.text, "answer to gpt-test");
  assert.equal(stub.requests.length - before, 3);
  assert.deepEqual(waits, [375, 750], "exponential backoff with jitter");
});

test("429 honours retry-after; retries are bounded and the last error is typed", async () => {
  const waits: number[] = [];
  stub.script(
    { status: 429, headers: { "retry-after": "2" }, body: { error: "slow down" } },
    { status: 502 },
    { status: 502, body: { error: `upstream said ${KEY}` } },
  );
  const error = await createLlmClient(config(), { sleep: async (ms) => void waits.push(ms), random: () => 0.5 })
    .complete(request)
    .then(
      () => assert.fail("expected a failure"),
      (e: unknown) => e,
    );
  assert.ok(error instanceof LlmError);
  assert.equal(error.code, "http_error");
  assert.equal(error.status, 502);
  assert.equal(error.details.attempts, 3);
  assert.equal(waits[0], 2_000);
  assert.ok(!error.details.bodyExcerpt?.includes(KEY) && error.details.bodyExcerpt?.includes("[redacted]"), "the key never leaves the server");
});

test("401 is not retried", async () => {
  const before = stub.requests.length;
  stub.script({ status: 401, body: { error: { message: "invalid x-api-key" } } });
  await assert.rejects(
    createLlmClient(config(), noWait).complete(request),
    (e: unknown) => e instanceof LlmError && e.status === 401 && e.details.attempts === 1 && /invalid x-api-key/.test(e.details.bodyExcerpt ?? ""),
  );
  assert.equal(stub.requests.length - before, 1);
});

test("a slow endpoint times out per attempt and the error says so", async () => {
  stub.script({ delayMs: 400 }, { delayMs: 400 });
  const started = Date.now();
  await assert.rejects(
    createLlmClient(config({ timeoutMs: 100, maxRetries: 1 }), noWait).complete(request),
    (e: unknown) => e instanceof LlmError && e.code === "timeout" && e.details.attempts === 2 && /within 100 ms/.test(e.message),
  );
  assert.ok(Date.now() - started < 1_500);
});

test("a dropped connection is a network error and is retried", async () => {
  stub.script({ drop: true });
  assert.equal((await createLlmClient(config(), noWait).complete(request)).text, "answer to gpt-test");
  stub.script({ drop: true });
  await assert.rejects(createLlmClient(config({ maxRetries: 0 }), noWait).complete(request), (e: unknown) => e instanceof LlmError && e.code === "network");
});

test("a success body of the wrong shape is a bad_response, not a crash", async () => {
  stub.script({ body: { choices: [] } });
  await assert.rejects(createLlmClient(config(), noWait).complete(request), (e: unknown) => e instanceof LlmError && e.code === "bad_response");
  stub.script({ body: "<html>proxy</html>" });
  await assert.rejects(createLlmClient(config(), noWait).complete(request), (e: unknown) => e instanceof LlmError && e.code === "bad_response");
});

test("config from the environment: off when unset, defaults filled, every problem named without values", () => {
  assert.equal(readLlmConfig({}), undefined);
  const anthropic = readLlmConfig({
    TRACEFOLD_LLM_PROVIDER: "anthropic",
    TRACEFOLD_LLM_API_KEY: KEY,
    TRACEFOLD_LLM_MODEL: "claude-x",
    TRACEFOLD_LLM_TIMEOUT_MS: "5000",
  });
  assert.deepEqual(anthropic, {
    provider: "anthropic",
    baseUrl: "https://api.anthropic.com",
    apiKey: KEY,
    model: "claude-x",
    timeoutMs: 5_000,
    maxRetries: 2,
    reasoning: "auto",
  });
  assert.throws(
    () => readLlmConfig({ TRACEFOLD_LLM_PROVIDER: "anthropic", TRACEFOLD_LLM_BASE_URL: "ftp://x", TRACEFOLD_LLM_TIMEOUT_MS: "soon" }),
    (e: unknown) => e instanceof LlmConfigError && e.problems.length === 4 && e.problems.every((p) => p.startsWith("TRACEFOLD_LLM_")),
  );
  assert.throws(() => readLlmConfig({ TRACEFOLD_LLM_PROVIDER: "gemini", TRACEFOLD_LLM_MODEL: "m" }), /TRACEFOLD_LLM_PROVIDER/);
});
