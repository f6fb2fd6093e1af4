/**
 * `npm run bench:load`: the studio under load on PostgreSQL, on loopback only, stopping by itself.
 * A throwaway database (tracefold_load_<random>, dropped at the end), seeded through server/
 * functions; the studio built into data/.next-load and served by `next start` on a free loopback
 * port; then scenario A (reviewers labeling over HTTP), scenario B (concurrent uploads), scenario
 * C (the studio SIGKILLed mid-import, restarted, checked and the unanswered files uploaded again) and
 * scenario D (OTLP exporters sending spans of long conversations; otlp-scenario.ts), D once more as
 * its baseline on a studio that rebuilds every session inside its request (TRACEFOLD_OTLP_SYNC_SPANS
 * unbounded, the behaviour before deferred rebuilds).
 * Prints one JSON line and a table; exits 1 when a target is missed or anything fails. The server is
 * stopped, the database dropped and the temp directory removed in every case (also on Ctrl-C).
 *
 * LOAD_SCENARIOS (review,uploads,kill,otlp: which to run; review and uploads need the seed of every
 * shared trace, so `LOAD_SCENARIOS=otlp` alone starts in seconds),
 * LOAD_SECONDS (120), LOAD_REVIEWERS (50), LOAD_THINK_MS (1000: mean pause before each save),
 * LOAD_UPLOADS (20), LOAD_UPLOAD_MB (10, also scenario C's size), LOAD_KILL_UPLOADS (6; 0 skips scenario C),
 * LOAD_OTLP_EXPORTERS (20), LOAD_OTLP_SPANS_PER_SECOND (50, per exporter), LOAD_OTLP_SECONDS (15; the issue's figure is 60),
 * LOAD_OTLP_BATCH_MS (1000: the exporters' batch interval), LOAD_OTLP_BASELINE_SECONDS (LOAD_OTLP_SECONDS; 0 skips the baseline),
 * LOAD_PG_ADMIN_URL (postgresql://postgres@127.0.0.1:5432/postgres),
 * LOAD_SKIP_BUILD=1 reuses data/.next-load when LOAD_KEEP_BUILD=1 kept it from an earlier run,
 * LOAD_PROFILE_DIR=dir writes a V8 CPU profile of each studio process there (open it in Chrome's DevTools).
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { runKillScenario, type KillScenarioResult } from "./kill-scenario";
import { createLoadDatabase, type LoadDatabase } from "./load-database";
import { round } from "./latency";
import { runOtlpScenario, type OtlpScenarioResult } from "./otlp-scenario";
import { formatTable, missedTargets, type LoadReport } from "./report";
import { runReviewScenario } from "./review-scenario";
import { seedLoad, type LoadSeed } from "./seed-load";
import { buildStudio, LOAD_DIST_DIR, startStudio, type StudioServer } from "./studio-server";
import { runUploadScenario } from "./upload-scenario";

const TRACES = process.env.TRACEFOLD_TRACES_DIR ?? resolve(__dirname, "../../../../shared/traces");
const UPLOAD_SOURCE = join(TRACES, "claude_code_jsonl/marot__spotter/test/fixtures/transcripts/258c7280-ae70-4798-800f-63464d01a85d.jsonl");

function positive(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === "" ? fallback : Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`bench:load: ${name} must be a non-negative number, got ${raw}`);
  return value;
}

const workDir = mkdtempSync(join(tmpdir(), "tracefold-load-"));
let database: LoadDatabase | undefined;
let server: StudioServer | undefined;
/** The studio's log, then the restarted studio's (scenario C). */
const studioLogs: string[] = [];
let cleaning: Promise<void> | undefined;

function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    await server?.stop().catch((e: unknown) => console.error(`bench:load: stopping the studio: ${String(e)}`));
    await database?.drop().catch((e: unknown) => console.error(`bench:load: dropping ${database?.name}: ${String(e)}`));
    rmSync(workDir, { recursive: true, force: true });
    if (process.env.LOAD_KEEP_BUILD !== "1") rmSync(LOAD_DIST_DIR, { recursive: true, force: true });
  })();
  return cleaning;
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    console.error(`bench:load: ${signal}, cleaning up`);
    void cleanup().finally(() => process.exit(130));
  });
}

const SCENARIOS = ["review", "uploads", "kill", "otlp"] as const;

/** LOAD_SCENARIOS: a comma-separated subset of SCENARIOS (default all). */
function scenarios(): Set<(typeof SCENARIOS)[number]> {
  const raw = process.env.LOAD_SCENARIOS?.trim() || SCENARIOS.join(",");
  const picked = raw.split(",").map((s) => s.trim());
  const unknown = picked.filter((s) => !(SCENARIOS as readonly string[]).includes(s));
  if (unknown.length > 0) throw new Error(`bench:load: LOAD_SCENARIOS: unknown ${unknown.join(", ")}; expected some of ${SCENARIOS.join(",")}`);
  return new Set(picked as (typeof SCENARIOS)[number][]);
}

async function main(): Promise<number> {
  const selected = scenarios();
  const seconds = positive("LOAD_SECONDS", 120);
  const reviewers = positive("LOAD_REVIEWERS", 50);
  const thinkMs = positive("LOAD_THINK_MS", 1000);
  const uploads = positive("LOAD_UPLOADS", 20);
  const uploadMb = positive("LOAD_UPLOAD_MB", 10);
  const killUploads = selected.has("kill") ? positive("LOAD_KILL_UPLOADS", 6) : 0;
  const otlpExporters = positive("LOAD_OTLP_EXPORTERS", 20);
  const otlpRate = positive("LOAD_OTLP_SPANS_PER_SECOND", 50);
  const otlpSeconds = positive("LOAD_OTLP_SECONDS", 15);
  const otlpBatchMs = positive("LOAD_OTLP_BATCH_MS", 1000);
  const otlpBaselineSeconds = positive("LOAD_OTLP_BASELINE_SECONDS", otlpSeconds);
  // The kill waits for one upload answered and another one importing: a single file can never show both.
  if (killUploads === 1) throw new Error("bench:load: LOAD_KILL_UPLOADS must be 0 (skip scenario C) or at least 2");

  database = await createLoadDatabase();
  const dataDir = join(workDir, "data");
  const seeded = selected.has("review") || selected.has("uploads") || killUploads > 0;
  if (seeded) console.error(`bench:load: database ${database.name}; seeding ${reviewers} reviewers, the shared traces, an evaluation run and a queue…`);
  const seed: LoadSeed | null = seeded ? await seedLoad(database.url, dataDir, TRACES, reviewers) : null;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
    DATABASE_URL: database.url,
    TRACEFOLD_DATA_DIR: dataDir,
    NEXTAUTH_SECRET: randomBytes(32).toString("hex"),
    TRACEFOLD_UPLOADS_PER_MINUTE: "100000",
  };
  const buildSeconds = round(await buildStudio(env, process.env.LOAD_SKIP_BUILD === "1"));
  const start = async (log: string) => {
    studioLogs.push(join(workDir, log));
    server = await startStudio(env, join(workDir, log), process.env.LOAD_PROFILE_DIR || undefined);
    return server;
  };
  server = await start("studio.log");
  console.error(`bench:load: studio on ${server.origin}`);

  const before = loadavg().map((l) => round(l, 2));
  let review = null;
  if (seed && selected.has("review")) {
    console.error(`bench:load: ${reviewers} reviewers label for ${seconds} s…`);
    review = await runReviewScenario(server.origin, database.url, seed.queueId, seed.reviewers, seconds, thinkMs);
  }
  let upload = null;
  if (seed && selected.has("uploads")) {
    console.error(`bench:load: ${uploads} concurrent uploads of ${uploadMb} MB…`);
    upload = await runUploadScenario(server.origin, database.url, seed.uploader, UPLOAD_SOURCE, workDir, uploads, uploadMb);
  }
  const otlp: OtlpScenarioResult[] = [];
  if (selected.has("otlp")) {
    const scenario = { dbUrl: database.url, exporters: otlpExporters, spansPerSecond: otlpRate, batchMs: otlpBatchMs, catchUpLimitSeconds: 600 };
    console.error(`bench:load: ${otlpExporters} OTLP exporters × ${otlpRate} spans/s × ${otlpSeconds} s…`);
    otlp.push(await runOtlpScenario({ ...scenario, origin: server.origin, label: "long sessions rebuilt after the request", seconds: otlpSeconds }));
    if (otlpBaselineSeconds > 0) {
      // The baseline: the same load on a studio that rebuilds every session inside each request.
      await server.stop();
      const baseline = await startStudio({ ...env, TRACEFOLD_OTLP_SYNC_SPANS: "1000000000" }, join(workDir, "studio-baseline.log"));
      server = baseline;
      studioLogs.push(join(workDir, "studio-baseline.log"));
      console.error(
        `bench:load: baseline, every session rebuilt inside its request: ${otlpExporters} exporters × ${otlpRate} spans/s × ${otlpBaselineSeconds} s…`,
      );
      otlp.push(await runOtlpScenario({ ...scenario, origin: baseline.origin, label: "baseline: rebuilt inside every request", seconds: otlpBaselineSeconds }));
      await baseline.stop();
      server = await start("studio-after-baseline.log");
    }
  }
  let kill: KillScenarioResult | null = null;
  if (seed && killUploads > 0) {
    console.error(`bench:load: ${killUploads} concurrent uploads of ${uploadMb} MB, the studio SIGKILLed mid-import and restarted…`);
    kill = await runKillScenario({
      server,
      restart: () => start("studio-restarted.log"),
      dbUrl: database.url,
      dataDir,
      account: seed.uploader,
      sourcePath: UPLOAD_SOURCE,
      workDir,
      count: killUploads,
      megabytes: uploadMb,
    });
  }
  const after = loadavg().map((l) => round(l, 2));

  const report: LoadReport = {
    setup: { reviewers: seed ? reviewers : 0, items: seed?.items ?? 0, sessions: seed?.sessions ?? 0, buildSeconds, loadAverage: { before, after } },
    review,
    uploads: upload,
    kill,
    otlp,
    failures: missedTargets(review, upload, kill, otlp),
  };
  console.log(JSON.stringify(report));
  console.log(formatTable(report));
  return report.failures.length === 0 ? 0 : 1;
}

main()
  .catch((error: unknown) => {
    console.error(`bench:load: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    for (const log of studioLogs) {
      if (existsSync(log)) console.error(`--- last lines of ${log} ---\n${readFileSync(log, "utf8").split("\n").slice(-40).join("\n")}`);
    }
    return 1;
  })
  .then(async (code) => {
    await cleanup();
    process.exit(code);
  });
