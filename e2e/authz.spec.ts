import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, request as playwrightRequest, test, type APIRequestContext, type APIResponse } from "@playwright/test";
import { USAGE_FIELDS } from "../lib/online/usage/schema";
import { KEY_WHO, keyAnswer, MATRIX, WHO, type Answer, type Ids, type KeyWho, type Who } from "./authz-matrix";
import { storageStateOf } from "./fixtures/accounts";
import { PAYLOADS, writeHostileTranscript } from "./fixtures/hostile-trace";
import { COMPACTED_TRANSCRIPT, E2E_ENV, importForE2e } from "./fixtures/import-session";
import { listEntryPoints } from "./fixtures/route-inventory";
import { callAction, findAction } from "./fixtures/server-actions";
import { CLAUDE_CODE_TRANSCRIPT } from "./fixtures/trace-files";
import { writeUsageWeek } from "./fixtures/usage-log";

/*
 * The authorization matrix (e2e/authz-matrix.ts) against the production build, refused mutations
 * that must change nothing, path traversal on the download routes, and stored XSS in trace content.
 */
const ORIGIN = `http://127.0.0.1:${process.env.E2E_PORT ?? "3100"}`;
const NAME = `e2e authz ${Date.now()}`;
/** Not online.spec.ts's seed: the same bytes uploaded by both specs would be a duplicate there. */
const AUTHZ_USAGE_SEED = 23;

/** The generated usage week names its timestamp column `event_time`; every other column is named after its field. */
const USAGE_MAPPING = encodeURIComponent(JSON.stringify(Object.fromEntries(USAGE_FIELDS.map((f) => [f, f === "timestamp" ? "event_time" : f]))));

interface Snapshot {
  counts: Record<string, number>;
  users: { id: string; email: string; role: string }[];
  runs: { id: string; status: string }[];
  queues: { id: string; runId: string; name: string }[];
  uploads: string[];
  redaction: Record<string, boolean>;
  settings: { key: string; value: string }[];
}

function tsx(...args: string[]): string {
  const stdout = execFileSync("npx", ["--no-install", "tsx", ...args], { env: { ...process.env, ...E2E_ENV }, encoding: "utf8" });
  return stdout.trim().split("\n").pop() ?? "";
}
const snapshot = (): Snapshot => JSON.parse(tsx("e2e/fixtures/db-snapshot.ts")) as Snapshot;

/** A real Claude Code session the ingest key uploads. */
const KEY_UPLOAD_TRANSCRIPT = resolve(
  "../shared/traces/claude_code_jsonl/DRMacIver__claude-reliability/snapshot-tests/tests/coverage-test-fix/transcript.jsonl",
);

const contexts = {} as Record<Who, APIRequestContext>;
/** Bearer-key callers: no cookies and no Origin header, as a script sends them. */
const keyContexts = {} as Record<KeyWho, APIRequestContext>;
let ids: Ids;
let hostileSessionId = "";

test.beforeAll(async () => {
  test.setTimeout(240_000);
  for (const who of WHO) {
    // Like a browser on the studio's own pages: mutating route handlers refuse requests without it.
    contexts[who] = await playwrightRequest.newContext({
      baseURL: ORIGIN,
      extraHTTPHeaders: { origin: ORIGIN },
      storageState: who === "anonymous" ? { cookies: [], origins: [] } : storageStateOf(who),
    });
  }
  const createKey = (scope: "read" | "ingest") =>
    JSON.parse(tsx("cli/main.ts", "keys", "create", "--name", `${NAME} ${scope}`, "--scope", scope, "--json")) as { id: string; key: string };
  const keys = { readKey: createKey("read"), ingestKey: createKey("ingest"), revokedKey: createKey("read") };
  tsx("cli/main.ts", "keys", "revoke", keys.revokedKey.id);
  for (const who of KEY_WHO)
    keyContexts[who] = await playwrightRequest.newContext({
      baseURL: ORIGIN,
      extraHTTPHeaders: { authorization: `Bearer ${keys[who].key}` },
      storageState: { cookies: [], origins: [] },
    });
  const [compacted] = importForE2e(COMPACTED_TRANSCRIPT);
  hostileSessionId = importForE2e(writeHostileTranscript())[0]!.id;
  const queueId = (JSON.parse(tsx("e2e/fixtures/seed-review-queue.ts", "claude_code_jsonl", "1", NAME, "dependency")) as { dependency: string }).dependency;
  const seeded = snapshot();
  const runId = seeded.queues.find((q) => q.id === queueId)!.runId;

  const cuts = (await (await contexts.admin.get(`/api/evaluations/${runId}/cuts?policy=tool-prune`)).json()) as {
    data: { unitKey: string }[] | { cuts: { unitKey: string }[] };
  };
  const unitKey = (Array.isArray(cuts.data) ? cuts.data : cuts.data.cuts)[0]!.unitKey;
  const compact = await contexts.viewer.post(`/api/sessions/${compacted!.id}/compact`, { data: { policy: "oldest-turn", cut: 250 } });
  const sidecarSha = ((await compact.json()) as { data: { result: { sidecars: { sha256: string }[] } } }).data.result.sidecars[0]!.sha256;
  const week = writeUsageWeek(AUTHZ_USAGE_SEED);
  const upload = await contexts.reviewer.put(`/api/online/uploads?name=authz-week.csv&mapping=${USAGE_MAPPING}`, { data: readFileSync(week.path) });
  const answer = (await upload.text()).trim().split("\n").pop()!;
  const logId = (JSON.parse(answer) as { outcome?: { logId?: string } }).outcome?.logId;
  if (!logId) throw new Error(`the usage log upload failed: ${answer}`);
  ids = { sessionId: compacted!.id, runId, queueId, logId, sidecarSha, unitKey, uploadId: seeded.uploads[0]! };
});

test.afterAll(async () => {
  for (const who of WHO) await contexts[who]?.dispose();
  for (const who of KEY_WHO) await keyContexts[who]?.dispose();
});

/** Fills `[name]` segments of an action's host page with the ids of the matching resource. */
function hostPath(page: string): string {
  return page
    .replace(/^\/sessions\/\[id\]/, `/sessions/${ids.sessionId}`)
    .replace(/^\/evaluations\/\[id\]/, `/evaluations/${ids.runId}`)
    .replace(/^\/online\/\[id\]/, `/online/${ids.logId}`)
    .replace(/^\/review\/\[queueId\]/, `/review/${ids.queueId}`);
}

function sendAction(who: Who, key: string, args: unknown[]): Promise<APIResponse> {
  const [, file, name] = /^action (.+)#(\w+)$/.exec(key)!;
  const ref = findAction(file!, name!);
  return callAction(contexts[who], ORIGIN, hostPath(ref.page), ref.id, args);
}

async function answerOf(response: APIResponse): Promise<Answer> {
  const location = response.headers()["location"];
  return location === undefined ? { status: response.status() } : { status: response.status(), location: location.replace(ORIGIN, "") };
}

test("every page, route handler and server action has expected answers in the matrix", () => {
  const named = new Set(MATRIX.map((row) => row.key));
  const found = listEntryPoints("app");
  expect(found.length).toBeGreaterThan(40);
  const missing = found.filter((key) => !named.has(key)).map((key) => `route ${key} has no expected answers in the matrix`);
  const stale = [...named].filter((key) => !found.includes(key)).map((key) => `matrix row ${key} names no entry point in app/`);
  expect([...missing, ...stale]).toEqual([]);
});

test("every entry point answers each role as the matrix says, and the probes change nothing", async () => {
  test.setTimeout(180_000);
  const before = snapshot();
  const mismatches: string[] = [];
  for (const row of MATRIX) {
    const probe = row.probe(ids);
    for (const who of WHO) {
      const expected = row.expect[who];
      let response: APIResponse;
      if ("args" in probe) response = await sendAction(who, row.key, probe.args);
      else {
        const [method] = row.key.split(" ");
        const options = { maxRedirects: 0, ...(probe.body !== undefined ? { data: probe.body } : {}) };
        response = await contexts[who].fetch(probe.path, { method: method!, ...options });
      }
      const actual = await answerOf(response);
      const locationOk = expected.location === undefined || (actual.location ?? "").startsWith(expected.location);
      if (actual.status !== expected.status || !locationOk)
        mismatches.push(`${row.key} as ${who}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
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
      const locationOk = expected.location === undefined || (actual.location ?? "").startsWith(expected.location);
      if (actual.status !== expected.status || !locationOk)
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
  const settings = {
    suite: { kind: "filter", filter: { formats: ["claude_code_jsonl"] } },
    policies: [{ id: "none" }],
    judge: "dependency",
    triggerLevel: 0.9,
  };
  const attempts: { key: string; args: unknown[]; refused: Who[] }[] = [
    {
      key: `action app/_actions/admin-users.ts#createUserAction`,
      args: [
        null,
        [
          ["email", "intruder@evil.example"],
          ["name", "Intruder"],
          ["password", "intruder-password"],
          ["role", "admin"],
        ],
      ],
      refused: ["anonymous", "viewer", "reviewer"],
    },
    {
      key: `action app/_actions/admin-users.ts#setUserRoleAction`,
      args: [
        null,
        [
          ["userId", viewerId],
          ["role", "admin"],
        ],
      ],
      refused: ["anonymous", "viewer", "reviewer"],
    },
    { key: `action app/_actions/sessions.ts#deleteSessionAction`, args: [ids.sessionId], refused: ["anonymous", "viewer", "reviewer"] },
    {
      key: `action app/_actions/admin-retention.ts#applyRetentionAction`,
      args: [
        null,
        [
          ["olderThan", "1m"],
          ["confirm", "delete"],
        ],
      ],
      refused: ["anonymous", "viewer", "reviewer"],
    },
    {
      key: `action app/_actions/admin-keys.ts#createKeyAction`,
      args: [
        null,
        [
          ["name", "intruder key"],
          ["scope", "read"],
        ],
      ],
      refused: ["anonymous", "viewer", "reviewer"],
    },
    {
      key: `action app/_actions/admin-settings.ts#setRedactionSettingsAction`,
      args: [
        null,
        [
          ["keepRawOriginals", "on"],
          ["redactEmails", "on"],
          ["rule.openai_key", "off"],
          ["allowList", "/sk-.*/"],
        ],
      ],
      refused: ["anonymous", "viewer", "reviewer"],
    },
    {
      key: `action app/_actions/admin-llm-settings.ts#saveLlmSettingsAction`,
      args: [
        null,
        [
          ["provider", "openai"],
          ["baseUrl", "https://evil.example/v1"],
          ["model", "exfiltrate"],
          ["timeoutMs", "5000"],
          ["maxRetries", "0"],
          ["apiKey", "sk-intruder-0000000000000000"],
        ],
      ],
      refused: ["anonymous", "viewer", "reviewer"],
    },
    { key: `action app/_actions/admin-llm-settings.ts#clearLlmSettingsAction`, args: ["clear"], refused: ["anonymous", "viewer", "reviewer"] },
    {
      key: `action app/_actions/review.ts#createQueueAction`,
      args: [{ runId: ids.runId, kind: "dependency", overlap: 1, name: "intruder queue" }],
      refused: ["anonymous", "viewer", "reviewer"],
    },
    {
      key: `action app/_actions/review.ts#importLabelsAction`,
      args: [{ queueId: ids.queueId, format: "csv", text: readFileSync(COMPACTED_TRANSCRIPT, "utf8").slice(0, 2000) }],
      refused: ["anonymous", "viewer", "reviewer"],
    },
    {
      key: `action app/_actions/review.ts#commentAction`,
      args: [{ queueId: ids.queueId, itemKey: ids.unitKey, text: "intruder comment" }],
      refused: ["anonymous", "viewer"],
    },
    { key: `action app/_actions/review.ts#openItemAction`, args: [{ queueId: ids.queueId }], refused: ["anonymous", "viewer"] },
    { key: `action app/_actions/evaluation.ts#createEvaluationAction`, args: [{ name: "intruder run", settings }], refused: ["anonymous", "viewer"] },
    { key: `action app/_actions/evaluation.ts#cancelEvaluationAction`, args: [ids.runId], refused: ["anonymous", "viewer"] },
  ];
  const wrong: string[] = [];
  for (const attempt of attempts) {
    for (const who of attempt.refused) {
      const response = await sendAction(who, attempt.key, attempt.args);
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

test("a server action posted from another origin is refused even with an admin's cookies", async () => {
  const before = snapshot();
  const ref = findAction("app/_actions/admin-settings.ts", "setRedactionSettingsAction");
  const response = await callAction(contexts.admin, "https://evil.example", ref.page, ref.id, [
    null,
    [
      ["keepRawOriginals", "on"],
      ["redactEmails", "on"],
    ],
  ]);
  expect(response.status()).not.toBe(200);
  expect(snapshot()).toEqual(before);
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

test("hostile trace content renders inert on the session page and the replay page", async ({ browser }) => {
  const page = await browser.newPage({ storageState: storageStateOf("viewer") });
  const dialogs: string[] = [];
  const leaving: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on("request", (req) => {
    if (!req.url().startsWith(`${ORIGIN}/`) && !req.url().startsWith("data:") && !req.url().startsWith("blob:")) leaving.push(req.url());
  });
  const assertInert = async () => {
    // The payloads are on screen as text, and none of them became an element.
    await expect(page.getByText(PAYLOADS[0], { exact: false }).first()).toBeVisible();
    const live = await page.evaluate(() => ({
      // Next's own flight-data scripts carry the page's data (trace text included) as escaped JSON;
      // a payload that broke out of them or out of the markup would be a script of its own.
      scripts: [...document.querySelectorAll("script")]
        .filter((s) => (s.textContent ?? "").includes("alert") && !/^\s*\(?self\.__next_f/.test(s.textContent ?? ""))
        .map((s) => (s.textContent ?? "").slice(0, 120)),
      handlers: document.querySelectorAll("[onerror],[onload],[onclick]").length,
      jsLinks: document.querySelectorAll('a[href^="javascript:" i],iframe[src^="javascript:" i]').length,
      svgs: [...document.querySelectorAll("svg")].filter((s) => s.outerHTML.includes("alert")).length,
      evil: [...document.querySelectorAll("[src],[href]")].filter((e) => /evil\.example/.test(e.getAttribute("src") ?? e.getAttribute("href") ?? "")).length,
    }));
    expect(live).toEqual({ scripts: [], handlers: 0, jsLinks: 0, svgs: 0, evil: 0 });
  };

  await page.goto(`/sessions/${hostileSessionId}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await assertInert();

  await page.goto(`/sessions/${hostileSessionId}/compact`);
  // oldest-turn folds the first user turn (every payload) into a sidecar; Restore shows its bytes.
  await page.getByLabel("Policy").selectOption("oldest-turn");
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(page.getByTestId("run-numbers").first()).toHaveText(/[\d,]+\s*→\s*[\d,]+\s*tokens/);
  await assertInert();
  await page
    .getByTestId("sidecar-pointer")
    .first()
    .getByRole("button", { name: /^Restore / })
    .click();
  const restored = page.getByRole("dialog", { name: /^Restored / });
  await expect(restored.getByTestId("restore-check")).toHaveText("✓ matches sha256");
  // The sidecar holds the folded messages as JSON: each payload is there, JSON-escaped, as text.
  for (const payload of PAYLOADS) await expect(restored.getByTestId("restore-text")).toContainText(JSON.stringify(payload).slice(1, -1));
  await assertInert();

  expect(dialogs).toEqual([]);
  expect(leaving).toEqual([]);
  await page.close();
});
