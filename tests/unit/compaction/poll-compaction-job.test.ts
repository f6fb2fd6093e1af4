import assert from "node:assert/strict";
import { afterEach, test } from "node:test";
import { pollCompactionJob, type JobProgress } from "../../../components/compaction/poll-compaction-job";
import type { CompactData } from "../../../server/compaction/compaction-api";

/** The page's poll of a queued compaction, against a scripted fetch (the answers the GET route gives). */
const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

function scriptFetch(answers: { status?: number; body: unknown; json?: boolean }[]): string[] {
  const urls: string[] = [];
  globalThis.fetch = (async (input: string | URL | Request) => {
    urls.push(String(input));
    const next = answers.shift();
    if (!next) throw new Error("polled past the end of the script");
    const json = next.json ?? true;
    return new Response(json ? JSON.stringify(next.body) : String(next.body), {
      status: next.status ?? 200,
      headers: { "content-type": json ? "application/json" : "text/html" },
    });
  }) as typeof fetch;
  return urls;
}

const data = { result: { policy: "self-gc" }, messageCount: 3, safeCuts: [], choice: {} } as unknown as CompactData;

test("polls queued → running → done and returns the synchronous answer's shape", async () => {
  const urls = scriptFetch([
    { body: { ok: true, jobId: "j1", status: "queued", attempts: 0 } },
    { body: { ok: true, jobId: "j1", status: "running", attempts: 1 } },
    { body: { ok: true, jobId: "j1", status: "done", data } },
  ]);
  const progress: JobProgress[] = [];
  const answer = await pollCompactionJob("s/1", "j1", new AbortController().signal, (p) => progress.push(p), 1);
  assert.deepEqual(answer, { ok: true, data });
  assert.deepEqual(
    progress.map((p) => `${p.status}:${p.attempts}`),
    ["queued:0", "queued:0", "running:1"],
  );
  assert.deepEqual(urls, Array(3).fill("/api/sessions/s%2F1/compact/jobs/j1"));
});

test("a failed job comes back as the error the synchronous route would answer", async () => {
  scriptFetch([{ body: { ok: false, jobId: "j1", status: "failed", code: "internal", message: "the policy run failed (self-gc at cut 3): boom" } }]);
  assert.deepEqual(await pollCompactionJob("s", "j1", new AbortController().signal, () => undefined, 1), {
    ok: false,
    code: "internal",
    message: "the policy run failed (self-gc at cut 3): boom",
  });
});

test("a refused or broken poll ends with a located error instead of polling forever", async () => {
  scriptFetch([{ status: 404, body: { ok: false, code: "not_found", message: "no such compaction job for this session" } }]);
  assert.deepEqual(await pollCompactionJob("s", "j9", new AbortController().signal, () => undefined, 1), {
    ok: false,
    code: "not_found",
    message: "polling compaction job j9: no such compaction job for this session",
  });
  scriptFetch([{ status: 502, body: "<html>bad gateway</html>", json: false }]);
  const broken = await pollCompactionJob("s", "j9", new AbortController().signal, () => undefined, 1);
  assert.equal(broken.ok, false);
  assert.match((broken as { message: string }).message, /^polling compaction job j9: the server answered 502/);
});

test("cancelling stops the poll", async () => {
  const urls = scriptFetch(Array.from({ length: 100 }, () => ({ body: { ok: true, jobId: "j1", status: "queued", attempts: 0 } })));
  const controller = new AbortController();
  const polling = pollCompactionJob("s", "j1", controller.signal, () => undefined, 5);
  setTimeout(() => controller.abort(), 30);
  await assert.rejects(polling);
  const seen = urls.length;
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(urls.length, seen, "no request after the cancel");
  assert.ok(seen < 100);
});
