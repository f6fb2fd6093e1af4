import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import { uploadFile, type PushClient } from "../../../cli/ingest/push/upload-file";
import { retryDelayMs } from "../../../lib/ingest/push/push-state";

const KEY = `tfk_${"k".repeat(43)}`;
const BIN = resolve(__dirname, "../../../cli/bin.mjs");

/**
 * Runs `tracefold push` as a child without blocking this process (spawnSync would: the stub studio
 * answering the child lives here).
 */
function tracefold(args: string[], env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { encoding: "utf8", env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      done({ status: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** A stand-in studio: each POST /api/v1/uploads takes the next scripted answer; it records what it got. */
interface Scripted {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}
function stubStudio() {
  const answers: Scripted[] = [];
  const polls: Scripted[] = [];
  const received: { name: string; auth: string | undefined; bytes: number }[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url!, "http://stub");
      const next = url.pathname === "/api/v1/uploads" ? answers.shift() : url.pathname.startsWith("/api/uploads/imports/") ? polls.shift() : undefined;
      if (url.pathname === "/api/v1/uploads")
        received.push({ name: url.searchParams.get("name")!, auth: req.headers.authorization, bytes: Buffer.concat(chunks).length });
      const answer = next ?? { status: 201, body: { ok: true, data: { status: "imported", uploadId: `u${received.length}`, sessions: [{ id: "s" }] } } };
      res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
      res.end(JSON.stringify(answer.body));
    });
  });
  return { server, answers, polls, received };
}

const imported = (sessions: number): Scripted => ({
  status: 201,
  body: { ok: true, data: { status: "imported", uploadId: "up1", sessions: Array.from({ length: sessions }, (_, i) => ({ id: `s${i}` })) } },
});

describe("tracefold push", () => {
  const stub = stubStudio();
  let to = "";
  const dir = mkdtempSync(join(tmpdir(), "tracefold-push-"));
  const file = join(dir, "a.jsonl");
  writeFileSync(file, '{"type":"user"}\n');
  const waits: number[] = [];
  const client = (): PushClient => ({ to, key: KEY, sleep: async (ms) => void waits.push(ms), pollMs: 5 });

  before(async () => {
    await new Promise<void>((r) => stub.server.listen(0, "127.0.0.1", r));
    to = `http://127.0.0.1:${(stub.server.address() as { port: number }).port}`;
  });
  after(
    () =>
      new Promise<void>((r) => {
        stub.server.close(() => r());
        stub.server.closeAllConnections();
      }),
  );

  test("retry waits: Retry-After when given, else 1, 2, 4 … s capped at 30", () => {
    assert.deepEqual(
      [1, 2, 3, 6, 9].map((a) => retryDelayMs(a)),
      [1000, 2000, 4000, 30_000, 30_000],
    );
    assert.equal(retryDelayMs(1, 7), 7000);
  });

  test("a rate limit and a server error are retried; the file arrives once with the key", async () => {
    waits.length = 0;
    stub.received.length = 0;
    stub.answers.push(
      { status: 429, body: { ok: false, code: "rate_limited", message: "slow down" }, headers: { "retry-after": "3" } },
      { status: 503, body: { ok: false, message: "busy" } },
      imported(2),
    );
    const outcome = await uploadFile(client(), file);
    assert.deepEqual(outcome, { status: "imported", uploadId: "up1", sessions: 2 });
    assert.deepEqual(waits, [3000, 2000]);
    assert.equal(stub.received.length, 3);
    assert.deepEqual(stub.received[2], { name: "a.jsonl", auth: `Bearer ${KEY}`, bytes: 16 });
  });

  test("a refusal (422) fails at once with the studio's message", async () => {
    waits.length = 0;
    stub.answers.push({ status: 422, body: { ok: false, code: "invalid_trace", message: "line 1: not a trace" } });
    assert.deepEqual(await uploadFile(client(), file), { status: "failed", message: "HTTP 422 invalid_trace: line 1: not a trace" });
    assert.deepEqual(waits, []);
  });

  test("a queued import is followed until it is imported", async () => {
    stub.answers.push({ status: 202, body: { ok: true, data: { status: "queued", importId: "imp1" } } });
    stub.polls.push(
      { status: 200, body: { ok: true, data: { status: "importing" } } },
      { status: 200, body: { ok: true, data: { status: "imported", uploadId: "up9", sessions: [{ id: "x" }] } } },
    );
    assert.deepEqual(await uploadFile(client(), file), { status: "imported", uploadId: "up9", sessions: 1 });
  });

  test("an unreachable studio is retried, then the file fails naming why", async () => {
    waits.length = 0;
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const outcome = await uploadFile({ ...client(), to: `http://127.0.0.1:${port}` }, file);
    assert.equal(outcome.status, "failed");
    assert.match((outcome as { message: string }).message, /^the studio could not be reached: ECONNREFUSED/);
    assert.deepEqual(waits, [1000, 2000, 4000, 8000]);
  });

  test("the command records what arrived: a second push sends nothing, a changed file is sent again", async () => {
    const state = join(dir, "state.json");
    const push = () => tracefold(["push", dir, "--to", to, "--state", state, "--json"], { TRACEFOLD_API_KEY: KEY });
    stub.received.length = 0;
    const first = await push();
    assert.equal(first.status, 0, first.stderr);
    assert.deepEqual(
      (JSON.parse(first.stdout) as { files: { status: string }[] }).files.map((f) => f.status),
      ["imported"],
    );
    const second = await push();
    assert.deepEqual(
      (JSON.parse(second.stdout) as { files: { status: string }[] }).files.map((f) => f.status),
      ["skipped"],
    );
    assert.equal(stub.received.length, 1);
    writeFileSync(file, '{"type":"user"}\n{"type":"assistant"}\n');
    const third = await push();
    assert.deepEqual(
      (JSON.parse(third.stdout) as { files: { status: string }[] }).files.map((f) => f.status),
      ["imported"],
    );
    assert.equal(stub.received.length, 2);
    const saved = JSON.parse(readFileSync(state, "utf8")) as { to: string; files: Record<string, { status: string }> };
    assert.equal(saved.to, to);
    assert.deepEqual(
      Object.values(saved.files).map((f) => f.status),
      ["imported"],
    );
  });

  test("bad command lines and a state file for another studio are refused before anything is sent", async () => {
    const run = (args: string[]) => tracefold(["push", ...args], { TRACEFOLD_API_KEY: "" });
    const sent = stub.received.length;
    assert.match((await run([dir, "--to", to])).stderr, /--key KEY \(or TRACEFOLD_API_KEY\) is required/);
    assert.match((await run([dir, "--to", to, "--key", "sk-123"])).stderr, /--key is not a Tracefold API key/);
    assert.match((await run([dir, "--key", KEY])).stderr, /--to URL is required/);
    assert.match((await run([dir, "--to", "ftp://x", "--key", KEY])).stderr, /--to must be an http\(s\) URL/);
    const other = join(dir, "other.json");
    writeFileSync(other, JSON.stringify({ version: 1, to: "http://elsewhere.example", files: {} }));
    const refused = await run([dir, "--to", to, "--key", KEY, "--state", other]);
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /records pushes to http:\/\/elsewhere\.example/);
    assert.equal(stub.received.length, sent);
  });
});
