import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, request as playwrightRequest, test, type APIRequestContext, type APIResponse } from "@playwright/test";
import { KEY_WHO, keyAnswer, MATRIX, WHO, type Ids, type KeyWho, type Who } from "./authz-matrix";
import { storageStateOf } from "./fixtures/accounts";
import {
  answerOf,
  AUTHZ_USAGE_SEED,
  disposeAll,
  isAnswered,
  openRoleContexts,
  ORIGIN,
  seedAuthz,
  sendAction,
  snapshot,
  USAGE_MAPPING,
} from "./fixtures/authz-context";
import { refusedActionAttempts } from "./fixtures/refused-actions";
import { CLAUDE_CODE_TRANSCRIPT } from "./fixtures/trace-files";
import { writeUsageWeek } from "./fixtures/usage-log";

/*
 * Requests against resources this file seeds once (API keys, a session with a sidecar, an evaluation
 * run and its review queue, a usage log): the matrix (e2e/authz-matrix.ts) for every role and API
 * key, refused mutations and other origins that must change nothing, and path traversal on the
 * download routes. These tests stay in one file, in their original order: the seed is costly, and a
 * second upload of the usage log would be a duplicate. Their db snapshots assume no other writer,
 * which holds because playwright.config.ts runs one worker (workers: 1, fullyParallel: false).
 */

/** A real Claude Code session the ingest key uploads. */
const KEY_UPLOAD_TRANSCRIPT = resolve(
  "../shared/traces/claude_code_jsonl/DRMacIver__claude-reliability/snapshot-tests/tests/coverage-test-fix/transcript.jsonl",
);

let contexts = {} as Record<Who, APIRequestContext>;
/** Bearer-key callers: no cookies and no Origin header, as a script sends them. */
let keyContexts = {} as Record<KeyWho, APIRequestContext>;
let ids: Ids;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  contexts = await openRoleContexts();
  ({ ids, keyContexts } = await seedAuthz(contexts));
});

test.afterAll(async () => {
  await disposeAll(contexts, keyContexts);
});

const sendAs = (who: Who, key: string, args: unknown[]): Promise<APIResponse> => sendAction(contexts, ids, who, key, args);

test("every entry point answers each role as the matrix says, and the probes change nothing", async () => {
  test.setTimeout(180_000);
  const before = snapshot();
  const mismatches: string[] = [];
  for (const row of MATRIX) {
    const probe = row.probe(ids);
    for (const who of WHO) {
      const expected = row.expect[who];
      let response: APIResponse;
      if ("args" in probe) response = await sendAs(who, row.key, probe.args);
      else {
        const [method] = row.key.split(" ");
        const options = { maxRedirects: 0, ...(probe.body !== undefined ? { data: probe.body } : {}) };
        response = await contexts[who].fetch(probe.path, { method: method!, ...options });
      }
      const actual = await answerOf(response);
      if (!isAnswered(expected, actual)) mismatches.push(`${row.key} as ${who}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
      // An allowed action call ran the action itself (it refused the invalid probe), not a redirect.
      if ("args" in probe && expected.status === 200) {
        const body = await response.text();
        if (response.headers()["x-action-redirect"] || !/"ok":(true|false)/.test(body))
          mismatches.push(`${row.key} as ${who}: the action did not answer with its own result: ${body.slice(0, 200)}`);
      }
    }
  }
  expect(mismatches).toEqual([]);
  expect(snapshot()).toEqual(before);
});

test("every entry point answers each API key (read, ingest, revoked) as the matrix derives, and the probes change nothing", async () => {
  test.setTimeout(120_000);
  const before = snapshot();
  const mismatches: string[] = [];
  for (const row of MATRIX) {
    const probe = row.probe(ids);
    if ("args" in probe) continue; // server actions take no bearer key: covered as anonymous callers above
    const [method] = row.key.split(" ");
    for (const who of KEY_WHO) {
      const expected = keyAnswer(row, who);
      const response = await keyContexts[who].fetch(probe.path, {
        method: method!,
        maxRedirects: 0,
        ...(probe.body !== undefined ? { data: probe.body } : {}),
      });
      const actual = await answerOf(response);
      if (!isAnswered(expected, actual))
        mismatches.push(`${row.key} with ${who}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)} ${(await response.text()).slice(0, 160)}`);
    }
  }
  expect(mismatches).toEqual([]);
  expect(snapshot()).toEqual(before);
});

test("an ingest key uploads a trace with no cookie and no Origin; a read key cannot; a key never unlocks cookies' rights", async () => {
  // Not CLAUDE_CODE_TRANSCRIPT: upload-and-browse.spec.ts expects to be the first to import that one.
  const trace = readFileSync(KEY_UPLOAD_TRANSCRIPT);
  const byReadKey = await keyContexts.readKey.put("/api/uploads?name=read-key.jsonl", { data: trace });
  expect(byReadKey.status()).toBe(403);
  const byIngestKey = await keyContexts.ingestKey.put("/api/uploads?name=ingest-key.jsonl", { data: trace });
  expect([200, 201]).toContain(byIngestKey.status());
  expect(((await byIngestKey.json()) as { ok: boolean }).ok).toBe(true);
  // A malformed bearer with an admin's cookies is refused: the header, not the cookie, decides.
  const mixed = await contexts.admin.get("/api/policies", { headers: { authorization: "Bearer not-a-key" } });
  expect(mixed.status()).toBe(401);
});

test("valid mutations from refused roles are refused and change nothing", async () => {
  test.setTimeout(120_000);
  const before = snapshot();
  const viewerId = before.users.find((u) => u.email === "viewer@tracefold.local")!.id;
  const S = "app/(studio)";
  const attempts = refusedActionAttempts(ids, viewerId);
  const wrong: string[] = [];
  for (const attempt of attempts) {
    for (const who of attempt.refused) {
      const response = await sendAs(who, attempt.key, attempt.args);
      const expected = who === "anonymous" ? 307 : 404;
      if (response.status() !== expected) wrong.push(`${attempt.key} as ${who}: ${response.status()} ${(await response.text()).slice(0, 200)}`);
    }
  }
  const trace = readFileSync(CLAUDE_CODE_TRANSCRIPT);
  const usage = readFileSync(writeUsageWeek(AUTHZ_USAGE_SEED).path);
  for (const [who, status] of [
    ["anonymous", 401],
    ["viewer", 403],
  ] as const) {
    const traceUpload = await contexts[who].put("/api/uploads?name=intruder.jsonl", { data: trace });
    const usageUpload = await contexts[who].put(`/api/online/uploads?name=intruder.csv&mapping=${USAGE_MAPPING}`, { data: usage });
    if (traceUpload.status() !== status) wrong.push(`PUT /api/uploads as ${who}: ${traceUpload.status()}`);
    if (usageUpload.status() !== status) wrong.push(`PUT /api/online/uploads as ${who}: ${usageUpload.status()}`);
  }
  expect(wrong).toEqual([]);
  expect(snapshot()).toEqual(before);
  // The viewer is still a viewer where it matters: the admin page stays closed to them.
  expect((await contexts.viewer.get("/admin/users", { maxRedirects: 0 })).status()).toBe(404);
});

/** The matrix rows of route handlers that change something (POST/PUT/PATCH/DELETE). */
const MUTATING_ROUTES = MATRIX.filter((row) => /^(POST|PUT|PATCH|DELETE) \/api\//.test(row.key));

test("every mutating route handler refuses another origin, a foreign Referer and a request without either, for every role", async () => {
  test.setTimeout(120_000);
  expect(MUTATING_ROUTES.length).toBeGreaterThanOrEqual(4);
  const before = snapshot();
  const wrong: string[] = [];
  const bare = await playwrightRequest.newContext({ baseURL: ORIGIN, storageState: storageStateOf("admin") });
  const variants: { name: string; who: Who; headers: Record<string, string>; context?: APIRequestContext }[] = [
    ...WHO.map((who) => ({ name: "Origin https://evil.example", who, headers: { origin: "https://evil.example" } })),
    { name: "Origin null", who: "admin", headers: { origin: "null" } },
    { name: "an Origin on another port", who: "admin", headers: { origin: ORIGIN.replace(/:\d+$/, ":3999") } },
    { name: "a foreign Referer and no Origin", who: "admin", headers: { referer: "https://evil.example/page" }, context: bare },
    { name: "neither Origin nor Referer", who: "admin", headers: {}, context: bare },
  ];
  for (const row of MUTATING_ROUTES) {
    const probe = row.probe(ids);
    if ("args" in probe) continue;
    const [method] = row.key.split(" ");
    for (const variant of variants) {
      const context = variant.context ?? contexts[variant.who];
      const response = await context.fetch(probe.path, {
        method: method!,
        headers: variant.headers,
        maxRedirects: 0,
        ...(probe.body !== undefined ? { data: probe.body } : {}),
      });
      const body = await response.text();
      if (response.status() !== 403 || !body.includes('"code":"cross_origin"'))
        wrong.push(`${row.key} as ${variant.who} with ${variant.name}: ${response.status()} ${body.slice(0, 160)}`);
    }
  }
  // Valid mutations with an admin's cookies, from another origin: nothing is imported, no session is issued.
  const evil = { origin: "https://evil.example" };
  const refused = [
    await contexts.admin.put("/api/uploads?name=cross-origin.jsonl", { data: readFileSync(CLAUDE_CODE_TRANSCRIPT), headers: evil }),
    await contexts.admin.put(`/api/online/uploads?name=cross-origin.csv&mapping=${USAGE_MAPPING}`, {
      data: readFileSync(writeUsageWeek(AUTHZ_USAGE_SEED + 1).path),
      headers: evil,
    }),
    await contexts.admin.post(`/api/sessions/${ids.sessionId}/compact`, { data: { policy: "oldest-turn", cut: 250 }, headers: evil }),
  ];
  const { csrfToken } = (await (await contexts.anonymous.get("/api/auth/csrf")).json()) as { csrfToken: string };
  refused.push(
    await contexts.anonymous.post("/api/auth/callback/credentials", {
      form: { csrfToken, email: "admin@tracefold.local", password: "tracefold-demo", json: "true" },
      headers: evil,
      maxRedirects: 0,
    }),
  );
  for (const response of refused) if (response.status() !== 403) wrong.push(`${response.url()}: ${response.status()}`);
  expect((await contexts.anonymous.storageState()).cookies.filter((c) => c.name.endsWith("session-token"))).toEqual([]);
  await bare.dispose();
  expect(wrong).toEqual([]);
  expect(snapshot()).toEqual(before);
  // The same calls from the studio's own origin still work: the refusals are about the origin only.
  expect((await contexts.viewer.post(`/api/sessions/${ids.sessionId}/compact`, { data: { policy: "oldest-turn", cut: 250 } })).status()).toBe(200);
});

test("download routes refuse path traversal and never serve a file outside the store", async () => {
  const sha = ids.sidecarSha;
  const probes = [
    `/api/sidecars/..%2F..%2F..%2F..%2F..%2Fetc%2Fpasswd`,
    `/api/sidecars/%2Fetc%2Fpasswd`,
    `/api/sidecars/..%5C..%5C..%5Cetc%5Cpasswd`,
    `/api/sidecars/%252e%252e%252f%252e%252e%252fetc%252fpasswd`,
    `/api/sidecars/${sha}%00`,
    `/api/sidecars/${sha}%00.txt`,
    `/api/sidecars/%00${sha}`,
    `/api/sidecars/..%2Fsidecars%2F${sha.slice(0, 2)}%2F${sha}`,
    `/api/sidecars/..%2F..%2Fe2e.db`,
    `/api/sidecars/${sha.toUpperCase()}`,
    `/api/evaluations/..%2F..%2F..%2Fetc%2Fpasswd/export`,
    `/api/evaluations/%2Fetc%2Fpasswd/export`,
    `/api/evaluations/${ids.runId}%00/export`,
    `/api/review/..%2F..%2F..%2Fetc%2Fpasswd/export?format=csv`,
    `/api/review/${ids.queueId}/export?format=..%2F..%2Fetc%2Fpasswd`,
    `/api/review/${ids.queueId}%00/export`,
    `/api/online/..%2F..%2F..%2Fetc%2Fpasswd/hourly`,
    `/api/online/${ids.logId}%00/hourly`,
    `/api/sessions/..%2F..%2Fetc%2Fpasswd/messages/0`,
    `/api/sessions/${ids.sessionId}/messages/..%2F..%2Fetc%2Fpasswd`,
    `/api/uploads/..%2F..%2F..%2Fetc%2Fpasswd/redactions`,
    `/api/uploads/${ids.uploadId}%00/redactions`,
    // Raw uploads are stored but not served by any route.
    `/api/uploads`,
    `/api/uploads/..%2F..%2Fe2e.db`,
    `/data/e2e.db`,
    `/_next/static/..%2F..%2F..%2Fpackage.json`,
    `/_next/static/%2e%2e/%2e%2e/e2e.db`,
  ];
  const leaks: string[] = [];
  for (const path of probes) {
    const response = await contexts.admin.get(path, { maxRedirects: 0 });
    const body = await response.text();
    if (![400, 404, 405].includes(response.status())) leaks.push(`${path}: ${response.status()}`);
    if (/root:x:0:0|SQLite format 3|"name":\s*"tracefold"/.test(body)) leaks.push(`${path}: served a file outside the store`);
  }
  expect(leaks).toEqual([]);
  // The real digest still works: the refusals above are not refusing everything.
  expect((await contexts.admin.get(`/api/sidecars/${sha}`)).status()).toBe(200);
});
