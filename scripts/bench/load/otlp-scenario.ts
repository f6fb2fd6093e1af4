import { randomBytes } from "node:crypto";
import { safeCutPoints } from "../../../lib/compaction/policies/cut-points";
import { createDb, type Db } from "../../../server/db/client";
import { createKey } from "../../../server/ingest/keys/create-key";
import { loadStoredSession } from "../../../server/trace/session/load-analyzed-session";
import { agentSpan, exportRequest, type OtlpJsonSpan } from "./otlp-agent-spans";
import { round, summarizeLatency, type LatencySummary } from "./latency";

export interface OtlpScenarioOptions {
  origin: string;
  dbUrl: string;
  /** What the run measures, in the report ("rebuilt after the request" or the baseline). */
  label: string;
  exporters: number;
  spansPerSecond: number;
  seconds: number;
  batchMs: number;
  /** Give up waiting for the sessions to converge after this many seconds. */
  catchUpLimitSeconds: number;
}

export interface OtlpScenarioResult {
  label: string;
  exporters: number;
  spansPerSecond: number;
  seconds: number;
  batchMs: number;
  /** Spans generated and sent (each exporter completes its last turn). */
  sent: number;
  accepted: number;
  /** Accepted spans over the time from the first request to the last answer. */
  acceptedPerSecond: number;
  /** From the first request to the last answer. */
  sendSeconds: number;
  requests: LatencySummary;
  errors: number;
  errorSamples: string[];
  /** From the last answer until every session held all its messages with no rebuild pending (null: not within the limit). */
  caughtUpSeconds: number | null;
  verify: { sessions: number; complete: number; evaluable: number; spansStored: number; lost: number; duplicated: number; dirtyLeft: number };
}

/**
 * Scenario D: `exporters` OTLP exporters, each an agent holding one long conversation, send
 * `spansPerSecond` spans each for `seconds` to `POST /v1/traces` as OTLP JSON, each with its own
 * ingest key, one request in flight per exporter (as the SDK's BatchSpanProcessor): every `batchMs`
 * the spans generated since the last send go in one request; a slow answer makes the next batch
 * larger, never drops or doubles spans. Then, from the last answer, waits until every session holds
 * all its messages (four a turn) with no rebuild pending, and checks nothing was lost or duplicated
 * (stored spans per conversation = spans sent) and that each session has a safe cut (evaluable).
 */
export async function runOtlpScenario(o: OtlpScenarioOptions): Promise<OtlpScenarioResult> {
  const db = createDb(o.dbUrl);
  try {
    const run = randomBytes(4).toString("hex");
    const keys = await Promise.all(
      Array.from({ length: o.exporters }, async (_, e) => (await createKey(db, { name: `load otlp ${run} ${e}`, scope: "ingest" })).key),
    );
    const conversations = keys.map((_, e) => `load-otlp-${run}-${e}`);
    const total = Math.ceil((o.spansPerSecond * o.seconds) / 4) * 4;
    const times: number[] = [];
    const errors: string[] = [];
    let accepted = 0;
    const baseNs = BigInt(Date.now()) * 1_000_000n;
    const started = performance.now();
    let lastAnswer = started;

    await Promise.all(
      keys.map(async (key, e) => {
        let produced = 0;
        // Exporters start spread over one batch interval, as independent services would.
        await sleep((o.batchMs * e) / o.exporters);
        while (produced < total) {
          const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * o.spansPerSecond));
          const spans: OtlpJsonSpan[] = [];
          for (; produced < due; produced++) spans.push(agentSpan(run, e, conversations[e]!, produced, baseNs, o.spansPerSecond));
          if (spans.length > 0) {
            const ok = await send(o.origin, key, spans, e, times, errors);
            if (ok) accepted += spans.length;
            lastAnswer = Math.max(lastAnswer, performance.now());
          }
          if (produced < total) await sleep(o.batchMs);
        }
      }),
    );
    const sendSeconds = (lastAnswer - started) / 1000;
    const caughtUp = await waitForSessions(db, conversations, total, o.catchUpLimitSeconds);
    const caughtUpSeconds = caughtUp === null ? null : round((caughtUp - lastAnswer) / 1000, 2);
    const verify = await verifySessions(db, conversations, total);
    return {
      label: o.label,
      exporters: o.exporters,
      spansPerSecond: o.spansPerSecond,
      seconds: o.seconds,
      batchMs: o.batchMs,
      sent: total * o.exporters,
      accepted,
      acceptedPerSecond: round(accepted / sendSeconds),
      sendSeconds: round(sendSeconds),
      requests: summarizeLatency(times),
      errors: errors.length,
      errorSamples: errors.slice(0, 5),
      caughtUpSeconds,
      verify,
    };
  } finally {
    await db.$disconnect();
  }
}

/** One export; a refusal or a partial success is an error (every span carries GenAI attributes). */
async function send(origin: string, key: string, spans: OtlpJsonSpan[], exporter: number, times: number[], errors: string[]): Promise<boolean> {
  const t0 = performance.now();
  try {
    const response = await fetch(`${origin}/v1/traces`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify(exportRequest(spans, `bench-agent-${exporter}`)),
    });
    const text = await response.text();
    if (response.status !== 200 || text.includes("partialSuccess")) {
      errors.push(`exporter ${exporter}: HTTP ${response.status} ${text.slice(0, 200)}`);
      return false;
    }
    return true;
  } catch (error) {
    errors.push(`exporter ${exporter}: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  } finally {
    times.push(performance.now() - t0);
  }
}

/** Polls until every conversation's session holds `spans` spans' messages and no rebuild is pending; the time it did, or null. */
async function waitForSessions(db: Db, conversations: string[], spans: number, limitSeconds: number): Promise<number | null> {
  const deadline = performance.now() + limitSeconds * 1000;
  while (performance.now() < deadline) {
    const [sessions, dirty] = await Promise.all([
      db.traceSession.findMany({ where: { externalId: { in: conversations } }, select: { messageCount: true } }),
      db.otlpDirtySession.count({ where: { sessionKey: { in: conversations.map((c) => `conversation:${c}`) } } }),
    ]);
    if (dirty === 0 && sessions.length === conversations.length && sessions.every((s) => s.messageCount === spans)) return performance.now();
    await sleep(100);
  }
  return null;
}

async function verifySessions(db: Db, conversations: string[], spans: number): Promise<OtlpScenarioResult["verify"]> {
  const verify = { sessions: 0, complete: 0, evaluable: 0, spansStored: 0, lost: 0, duplicated: 0, dirtyLeft: 0 };
  for (const conversation of conversations) {
    const key = `conversation:${conversation}`;
    const stored = await db.otlpSpan.count({ where: { sessionKey: key } });
    verify.spansStored += stored;
    verify.lost += Math.max(0, spans - stored);
    verify.duplicated += Math.max(0, stored - spans);
    verify.dirtyLeft += await db.otlpDirtySession.count({ where: { sessionKey: key } });
    const rows = await db.traceSession.findMany({ where: { externalId: conversation }, select: { id: true, messageCount: true } });
    verify.sessions += rows.length;
    if (rows.length !== 1) continue;
    if (rows[0]!.messageCount === spans) verify.complete++;
    const loaded = await loadStoredSession(db, rows[0]!.id);
    if (loaded && safeCutPoints(loaded.session).length > 0) verify.evaluable++;
  }
  return verify;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
