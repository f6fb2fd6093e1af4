import type { RolloutFigures } from "@/lib/rollout/rollout-figures";
import type { RolloutSessionReport } from "@/lib/rollout/rollout-suite";
import { wilson } from "@/lib/stats/wilson";
import type { Db } from "../db/client";
import { RolloutSettingsSchema, type RolloutSettings } from "./rollout-settings";
import { isRolloutActive } from "./rollout-status";

/** A rollout run as the list shows it. */
export interface RolloutRunSummary {
  id: string;
  name: string;
  status: string;
  done: number;
  total: number;
  error: string | null;
  /** A cancel was asked for; a running run stops before its next session. */
  cancelRequested: boolean;
  policies: string[];
  createdAt: string;
  finishedAt: string | null;
}

/** Per policy, the pooled figures and the 95% Wilson interval of lost steps per 100 calls. */
export interface RolloutPolicyRow extends RolloutFigures {
  lostPer100Interval: { low: number; high: number } | null;
}

/** One rolled-out session: the database id (for links) and its report (per policy figures, first losses, per-call series). */
export interface RolloutSessionRow extends RolloutSessionReport {
  sessionId: string;
  /** The session's title in the studio, when it is still stored. */
  title: string | null;
}

export interface RolloutRunView {
  run: RolloutRunSummary & { settings: RolloutSettings | null; startedAt: string | null };
  /** Pooled once the run is done (null before). */
  report: { trigger: number; window: number | null; hardLimit: boolean; policies: RolloutPolicyRow[] } | null;
  sessions: RolloutSessionRow[];
}

const SUMMARY = {
  id: true,
  name: true,
  status: true,
  done: true,
  total: true,
  error: true,
  cancelRequested: true,
  settings: true,
  createdAt: true,
  finishedAt: true,
} as const;

export async function listRollouts(db: Db, limit = 200): Promise<RolloutRunSummary[]> {
  const rows = await db.rolloutRun.findMany({ select: SUMMARY, orderBy: { createdAt: "desc" }, take: limit });
  return rows.map(toSummary);
}

/**
 * A run with its pooled report (when done) and its sessions in run order; null when there is no such
 * run. While the run is queued or running its sessions are not read (the page refreshes every two
 * seconds then, and a large run's stored walks are megabytes): they come with the figures.
 */
export async function getRollout(db: Db, runId: string): Promise<RolloutRunView | null> {
  const run = await db.rolloutRun.findUnique({ where: { id: runId }, select: { ...SUMMARY, report: true, startedAt: true } });
  if (!run) return null;
  const rows = isRolloutActive(run.status)
    ? []
    : await db.rolloutRunSession.findMany({ where: { runId }, orderBy: { position: "asc" }, select: { sessionId: true, report: true } });
  const titles = new Map(
    (await db.traceSession.findMany({ where: { id: { in: rows.map((r) => r.sessionId) } }, select: { id: true, title: true } })).map((s) => [s.id, s.title]),
  );
  const pooled = run.report ? (JSON.parse(run.report) as { trigger: number; window: number | null; hardLimit?: boolean; policies: RolloutFigures[] }) : null;
  return {
    run: { ...toSummary(run), settings: settingsOf(run.settings), startedAt: run.startedAt?.toISOString() ?? null },
    // Runs stored before the hard limit have no such field, nor a hardLimitCommits per policy: it was off.
    report: pooled
      ? {
          ...pooled,
          hardLimit: pooled.hardLimit === true,
          policies: pooled.policies.map((p) => withInterval({ ...p, hardLimitCommits: p.hardLimitCommits ?? 0 })),
        }
      : null,
    sessions: rows.map((r) => ({
      ...(JSON.parse(r.report) as RolloutSessionReport),
      sessionId: r.sessionId,
      title: titles.get(r.sessionId) ?? null,
    })),
  };
}

function withInterval(figures: RolloutFigures): RolloutPolicyRow {
  if (figures.calls === 0) return { ...figures, lostPer100Interval: null };
  const interval = wilson(figures.lostSteps, figures.calls);
  return { ...figures, lostPer100Interval: { low: 100 * interval.low, high: 100 * interval.high } };
}

function settingsOf(text: string): RolloutSettings | null {
  try {
    const parsed = RolloutSettingsSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function toSummary(row: {
  id: string;
  name: string;
  status: string;
  done: number;
  total: number;
  error: string | null;
  cancelRequested: boolean;
  settings: string;
  createdAt: Date;
  finishedAt: Date | null;
}): RolloutRunSummary {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    done: row.done,
    total: row.total,
    error: row.error,
    cancelRequested: row.cancelRequested,
    policies: settingsOf(row.settings)?.policies ?? [],
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}
