/**
 * `npm run bench`: import throughput and peak memory on a large Claude Code JSONL, o200k counting
 * throughput against the raw gpt-tokenizer call, policy replay throughput with its scaling in
 * session length, redaction over adversarial inputs (linear scaling against prose), and online usage-log aggregation (rows/s against a lines-only pass, peak RSS,
 * clustered bootstrap). Prints human tables and, last, one JSON line. Set BENCH_MB (default 200),
 * BENCH_ONLINE_ROWS (default 5,000,000), BENCH_ONLINE_MAX_RSS_MB (default 1024: the run fails past
 * it) and BENCH_ONLY (comma-separated parts: import,tokens,replay,rollout,redact,online,llm; default all).
 * `rollout`: whole-session rollouts of generated sessions (200K, 400K, 800K, 1,600K tokens) in a
 * BENCH_ROLLOUT_WINDOW (32,000) token window, judged and not (each size and policy in its own process,
 * the fastest of 3–9 runs after a warm-up); fails when
 * doubling the session costs a timed policy over 2.3× the time, except a policy whose prompt stays over
 * the window on a growing share of calls (printed with its figures).
 * `llm`: an LLM-judged suite against a local endpoint answering in BENCH_LLM_DELAY_MS (200),
 * sequential and with BENCH_LLM_CONCURRENCY (4) units in flight, over about BENCH_LLM_UNITS (80)
 * units; the run fails when the speedup is under BENCH_LLM_MIN_SPEEDUP (3, issue 13).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { generateSuite } from "../../lib/scenario";
import { makeClaudeJsonl } from "./make-claude-jsonl";
import { benchLlmJudge } from "./llm-judge";
import { assertOnlineMemory, benchOnline } from "./online";
import { benchRedact } from "./redact";
import { benchReplay } from "./replay";
import { assertRolloutLinear, benchRollout } from "./rollout";
import { benchTokens, round } from "./tokens";

const TRACES = process.env.TRACEFOLD_TRACES_DIR ?? resolve(__dirname, "../../../shared/traces");
const SOURCE = join(TRACES, "claude_code_jsonl/marot__spotter/test/fixtures/transcripts/258c7280-ae70-4798-800f-63464d01a85d.jsonl");

async function benchImport(megabytes: number) {
  const dir = mkdtempSync(join(tmpdir(), "tracefold-bench-"));
  try {
    const file = join(dir, "big-session.jsonl");
    await makeClaudeJsonl(SOURCE, file, megabytes * 1024 * 1024);
    const bytes = statSync(file).size;
    const run = spawnSync(process.execPath, ["--import", "tsx", resolve(__dirname, "import-worker.ts"), file], { encoding: "utf8", maxBuffer: 1 << 20 });
    if (run.status !== 0) throw new Error(`import worker failed: ${run.stderr}`);
    const r = JSON.parse(run.stdout) as { seconds: number; peakRss: number; baselineRss: number; messages: number; objects: number; errors: number };
    return {
      fileMB: round(bytes / 1e6),
      messages: r.messages,
      objects: r.objects,
      errors: r.errors,
      seconds: round(r.seconds),
      MBps: round(bytes / 1e6 / r.seconds),
      peakRssMB: round(r.peakRss / 1e6),
      peakOverFileSize: round((r.peakRss - r.baselineRss) / bytes),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const only = process.env.BENCH_ONLY?.split(",").map((s) => s.trim());
  const wanted = (part: string) => !only || only.includes(part);
  const out: Record<string, unknown> = {};
  let online: Awaited<ReturnType<typeof benchOnline>> | undefined;
  if (wanted("import")) {
    const megabytes = Number(process.env.BENCH_MB ?? 200);
    console.log(`› import: parse + index a ${megabytes} MB Claude Code JSONL (tokens excluded)`);
    out.import = await benchImport(megabytes);
    console.table([out.import]);
  }
  if (wanted("tokens")) {
    console.log("› tokens: o200k over a 20 MB generated suite");
    const suite = generateSuite({ seed: 1, sessions: 4, targetTokens: 1_300_000 }).map((s) => s.session);
    out.tokens = benchTokens(suite);
    console.table([out.tokens]);
  }
  if (wanted("replay")) {
    console.log("› replay: every policy at every 10th safe cut");
    out.replay = await benchReplay([50_000, 100_000, 200_000]);
    console.table(out.replay);
  }
  let rollout: Awaited<ReturnType<typeof benchRollout>> | undefined;
  if (wanted("rollout")) {
    const window = Number(process.env.BENCH_ROLLOUT_WINDOW ?? 32_000);
    console.log(
      `› rollout: whole generated sessions of growing length in a ${window}-token window, every commit judged (time ratio per doubling; bound 2.3 on every policy whose prompt stays under the window)`,
    );
    rollout = await benchRollout([200_000, 400_000, 800_000, 1_600_000], window);
    console.table(rollout);
    out.rollout = rollout;
  }
  if (wanted("redact")) {
    console.log("› redact: adversarial inputs at 256 KB and 1 MB against plain prose (linear: scaling ≈ 4)");
    out.redact = benchRedact();
    console.table((out.redact as ReturnType<typeof benchRedact>).rows);
  }
  if (wanted("online")) {
    const rows = Number(process.env.BENCH_ONLINE_ROWS ?? 5_000_000);
    if (!Number.isInteger(rows) || rows < 1) throw new Error(`BENCH_ONLINE_ROWS must be a whole number ≥ 1, got ${process.env.BENCH_ONLINE_ROWS}`);
    console.log(
      `› online: stream a ${rows.toLocaleString("en-US")}-row usage CSV (lines only = baseline; read; read + aggregate), then the clustered bootstrap`,
    );
    online = await benchOnline(rows);
    console.table(online.table);
    console.table([online.summary]);
    out.online = online;
  }
  let llm: Awaited<ReturnType<typeof benchLlmJudge>> | undefined;
  if (wanted("llm")) {
    const options = {
      units: Number(process.env.BENCH_LLM_UNITS ?? 80),
      delayMs: Number(process.env.BENCH_LLM_DELAY_MS ?? 200),
      concurrency: Number(process.env.BENCH_LLM_CONCURRENCY ?? 4),
    };
    console.log(
      `› llm: an LLM-judged suite (self-gc, oldest-turn) on real traces against a local endpoint answering in ${options.delayMs} ms, sequential vs ${options.concurrency} in flight`,
    );
    llm = await benchLlmJudge(TRACES, options);
    console.table(llm.table);
    console.table([{ sessions: llm.sessions, delayMs: llm.delayMs, speedup: llm.speedup, sameResults: llm.sameResults }]);
    out.llm = llm;
  }
  console.log(JSON.stringify(out));
  // After the JSON line, so the figures are on record even when a bound fails the run.
  if (online) assertOnlineMemory(online.table, Number(process.env.BENCH_ONLINE_MAX_RSS_MB ?? 1024));
  if (llm) assertLlmSpeedup(llm, Number(process.env.BENCH_LLM_MIN_SPEEDUP ?? 3));
  if (rollout) assertRolloutLinear(rollout, 2.3);
}

/** The bound: concurrent judging at least `min`× faster than sequential, with the same verdicts. */
function assertLlmSpeedup(llm: { speedup: number; sameResults: boolean }, min: number): void {
  if (!llm.sameResults) throw new Error("llm: the concurrent run's verdicts differ from the sequential run's");
  if (llm.speedup < min) throw new Error(`llm: concurrent judging is ${llm.speedup}× faster than sequential, under the ${min}× bound`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
