import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect, request as playwrightRequest, test, type APIRequestContext } from "@playwright/test";
import { readManifest } from "../tests/helpers/traces";
import { E2E_ENV } from "./fixtures/import-session";

/*
 * The public REST API as a CI job uses it (issue 15): project keys made on the server machine with
 * `tracefold keys create`, a trace sent with the ingest key, found, read and exported with the read
 * key, an evaluation started with the ingest key and followed to its end. No cookies, no Origin.
 */
const ORIGIN = `http://127.0.0.1:${process.env.E2E_PORT ?? "3100"}`;
/** A real Aider history nothing else in the e2e suite uploads; its session count from the corpus MANIFEST. */
const AIDER_PATH = "aider_chat_md/AFI-Protocol__afi-core/.aider.chat.history.md";
const AIDER = resolve("../shared/traces", AIDER_PATH);
const AIDER_SESSIONS = readManifest().find((e) => e.path === AIDER_PATH)!.sessions;

let ingestKey = "";

function createKey(scope: "ingest" | "read"): string {
  const stdout = execFileSync(
    "npx",
    ["--no-install", "tsx", "cli/main.ts", "keys", "create", "--name", `e2e api ${scope} ${Date.now()}`, "--scope", scope, "--json"],
    { env: { ...process.env, ...E2E_ENV }, encoding: "utf8" },
  );
  return (JSON.parse(stdout.trim().split("\n").pop()!) as { key: string }).key;
}

let ingest: APIRequestContext;
let read: APIRequestContext;

test.beforeAll(async () => {
  const client = (key: string) =>
    playwrightRequest.newContext({ baseURL: ORIGIN, extraHTTPHeaders: { authorization: `Bearer ${key}` }, storageState: { cookies: [], origins: [] } });
  ingestKey = createKey("ingest");
  ingest = await client(ingestKey);
  read = await client(createKey("read"));
});

test.afterAll(async () => {
  await ingest?.dispose();
  await read?.dispose();
});

test("a script uploads with an ingest key, finds and exports with a read key, and runs an evaluation", async () => {
  test.setTimeout(180_000);
  const bytes = readFileSync(AIDER);
  const upload = await ingest.post("/api/v1/uploads?name=.aider.chat.history.md", { data: bytes });
  expect([200, 201]).toContain(upload.status());
  const uploaded = (await upload.json()) as { ok: true; data: { sessions: { id: string }[] } };
  expect(uploaded.data.sessions.length).toBe(AIDER_SESSIONS);
  const ids = uploaded.data.sessions.map((s) => s.id);

  // The read key pages through the aider sessions two at a time and finds every one.
  const found: string[] = [];
  let cursor: string | null = null;
  do {
    const page = await read.get(`/api/v1/sessions?format=aider_chat_md&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(page.status()).toBe(200);
    const body = (await page.json()) as {
      data: { id: string; externalId: string; format: string; messages: number; toolCalls: number }[];
      nextCursor: string | null;
    };
    expect(body.data.length).toBeLessThanOrEqual(2);
    for (const s of body.data) expect(s.format).toBe("aider_chat_md");
    found.push(...body.data.map((s) => s.id));
    cursor = body.nextCursor;
  } while (cursor);
  for (const id of ids) expect(found).toContain(id);

  const one = (await (await read.get(`/api/v1/sessions/${ids[0]}`)).json()) as { data: { id: string; messages: number } };
  expect(one.data.id).toBe(ids[0]);
  const exported = await read.get(`/api/v1/sessions/${ids[0]}/export?as=jsonl`);
  expect(exported.status()).toBe(200);
  expect(exported.headers()["content-disposition"]).toContain(`${ids[0]}.tracefold.jsonl`);
  const lines = (await exported.text())
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { type: string });
  expect(lines[0]!.type).toBe("session");
  expect(lines.filter((l) => l.type === "message").length).toBe(one.data.messages);

  // The same session as OTLP JSON, and its (empty) review labels as span annotations; nothing without a key.
  const otlp = await read.get(`/api/v1/sessions/${ids[0]}/export?as=otlp`);
  expect(otlp.status()).toBe(200);
  expect(otlp.headers()["content-disposition"]).toContain(`${ids[0]}.otlp.json`);
  const request = (await otlp.json()) as { resourceSpans: { scopeSpans: { spans: { name: string; spanId: string }[] }[] }[] };
  const spans = request.resourceSpans[0]!.scopeSpans[0]!.spans;
  expect(spans[0]!.name).toMatch(/^invoke_agent/);
  expect(spans.filter((s) => s.name.startsWith("chat")).length).toBeGreaterThan(0);
  const annotations = await read.get(`/api/v1/sessions/${ids[0]}/span-annotations`);
  expect(annotations.status()).toBe(200);
  expect(await annotations.json()).toEqual({ data: [] });
  expect((await read.get(`/api/v1/sessions/${ids[0]}/export?as=pdf`)).status()).toBe(400);
  const anonymous = await playwrightRequest.newContext({ baseURL: ORIGIN, storageState: { cookies: [], origins: [] } });
  expect((await anonymous.get(`/api/v1/sessions/${ids[0]}/export?as=otlp`)).status()).toBe(401);
  expect((await anonymous.get(`/api/v1/sessions/${ids[0]}/span-annotations`)).status()).toBe(401);
  await anonymous.dispose();

  // The read key cannot send traces or start runs; the ingest key cannot read sessions.
  expect((await read.post("/api/v1/uploads?name=x.md", { data: bytes })).status()).toBe(403);
  expect((await ingest.get("/api/v1/sessions")).status()).toBe(403);

  const settings = {
    suite: { kind: "filter", filter: { formats: ["aider_chat_md"] } },
    policies: [{ id: "none" }, { id: "tool-prune" }],
    judge: "dependency",
    triggerLevel: 0.9,
  };
  expect((await read.post("/api/v1/runs", { data: { settings } })).status()).toBe(403);
  const bad = await ingest.post("/api/v1/runs", { data: { settings: { policies: "every" } } });
  expect(bad.status()).toBe(400);
  expect(((await bad.json()) as { code: string }).code).toBe("invalid_settings");
  const started = await ingest.post("/api/v1/runs", { data: { name: "e2e api run", settings } });
  expect(started.status()).toBe(201);
  const { runId } = ((await started.json()) as { data: { runId: string } }).data;
  await expect
    .poll(async () => ((await (await read.get(`/api/v1/runs/${runId}`)).json()) as { data: { run: { status: string } } }).data.run.status, { timeout: 150_000 })
    .toBe("done");

  const doc = (await (await read.get("/api/v1/openapi.json")).json()) as { openapi: string; paths: Record<string, unknown> };
  expect(doc.openapi).toBe("3.1.0");
  expect(Object.keys(doc.paths)).toContain("/api/v1/sessions/{id}/export");
});

test("tracefold push ships a directory with the ingest key and, run again, sends nothing new", () => {
  const dir = resolve("../shared/traces/aider_chat_md/AlexShchuka__mozgoslav");
  const state = join(mkdtempSync(join(tmpdir(), "tracefold-push-e2e-")), "push-state.json");
  const push = () => {
    try {
      return {
        code: 0,
        stdout: execFileSync("npx", ["--no-install", "tsx", "cli/main.ts", "push", dir, "--to", ORIGIN, "--state", state, "--json"], {
          env: { ...process.env, TRACEFOLD_API_KEY: ingestKey },
          encoding: "utf8",
        }),
      };
    } catch (error) {
      return { code: (error as { status?: number }).status ?? 1, stdout: String((error as { stdout?: string }).stdout ?? "") };
    }
  };
  const first = push();
  expect(first.code).toBe(0);
  const sent = JSON.parse(first.stdout.trim().split("\n").pop()!) as { files: { status: string; sessions?: number }[] };
  // traces-table.spec.ts imports this file too: whichever runs first imports it, the other finds it there.
  expect(["imported", "duplicate"]).toContain(sent.files[0]!.status);
  expect(sent.files).toHaveLength(1);
  expect(sent.files[0]!.sessions).toBe(readManifest().find((e) => e.path === "aider_chat_md/AlexShchuka__mozgoslav/.aider.chat.history.md")!.sessions);
  const again = JSON.parse(push().stdout.trim().split("\n").pop()!) as { files: { status: string }[] };
  expect(again.files.map((f) => f.status)).toEqual(["skipped"]);
});
