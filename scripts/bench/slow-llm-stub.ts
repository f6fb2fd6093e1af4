import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local OpenAI-compatible endpoint for the LLM bench: every POST …/chat/completions is answered
 * after `delayMs` with the same passing judge verdict and a fixed usage, whatever the load (each
 * request waits on its own timer, as a remote model's latency would). `GET /stats` gives the
 * requests so far and the most held at once (`POST /stats` resets the maximum), so the bench shows
 * the concurrency it really reached. It runs in its own process (startSlowLlmStub), as a remote
 * endpoint would: in the bench's process its request handling would take CPU from the run measured.
 */
const DIMENSION = { score: 5, verdict: "pass" };
const VERDICT = JSON.stringify({
  valid: true,
  uncertain: false,
  overall_score: 5,
  summary: "bench stub",
  dimension_scores: { goal_retention: DIMENSION, evidence_retention: DIMENSION, continuation_readiness: DIMENSION, compression_safety: DIMENSION },
  failure_culprit: null,
});
const BODY = JSON.stringify({
  id: "chatcmpl-bench",
  object: "chat.completion",
  created: 1_700_000_000,
  model: "bench-judge",
  choices: [{ index: 0, message: { role: "assistant", content: VERDICT }, finish_reason: "stop" }],
  usage: { prompt_tokens: 1_000, completion_tokens: 80, total_tokens: 1_080 },
});

export interface StubStats {
  requests: number;
  maxInFlight: number;
}

export interface SlowLlmStub {
  baseUrl: string;
  /** The stub's counters; `reset` zeroes the maximum in flight first. */
  stats(reset?: boolean): Promise<StubStats>;
  close(): void;
}

/** Serves until killed; prints its base URL as the first line on stdout. */
async function serve(delayMs: number): Promise<void> {
  const stats: StubStats = { requests: 0, maxInFlight: 0 };
  let inFlight = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.url === "/stats") {
        if (req.method === "POST") stats.maxInFlight = 0;
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(stats));
        return;
      }
      stats.requests++;
      stats.maxInFlight = Math.max(stats.maxInFlight, ++inFlight);
      setTimeout(() => {
        inFlight--;
        if (!req.url?.endsWith("/chat/completions")) res.writeHead(404).end();
        else res.writeHead(200, { "content-type": "application/json" }).end(BODY);
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
}

/** Starts the stub in a child process and resolves once it listens. */
export async function startSlowLlmStub(delayMs: number): Promise<SlowLlmStub> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", __filename, String(delayMs)], { stdio: ["ignore", "pipe", "inherit"] });
  const origin = await new Promise<string>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the bench's LLM stub exited (${code}) before listening`)));
    child.stdout!.once("data", (chunk: Buffer) => resolve(chunk.toString("utf8").trim().split("\n")[0]!));
  });
  return {
    baseUrl: `${origin}/v1`,
    stats: async (reset = false) => (await (await fetch(`${origin}/stats`, { method: reset ? "POST" : "GET" })).json()) as StubStats,
    close: () => void child.kill(),
  };
}

if (require.main === module) void serve(Number(process.argv[2] ?? 200));
