import { recordsAt } from "@/lib/evaluation/aggregate/aggregate";
import { aggregateBy, bySession, type GroupAggregate } from "@/lib/evaluation/aggregate/aggregate-by";
import { classifyWorkload, WORKLOADS } from "@/lib/evaluation/suites/workload";
import { FORMAT_IDS } from "@/lib/trace/model";
import type { Db } from "../db/client";
import { loadRunRecords } from "./run-records";
import { EvalSettingsSchema, policyKey } from "./run-settings";

/**
 * A run's per-policy figures per group of sessions (issue 4's breakdowns), from the stored results
 * and each session as stored: its `format` column, or its workload classified from its tool-result
 * objects (one grouped count per session and tool) by lib/evaluation's classifyWorkload — the same
 * labels and the same aggregateBy as `tracefold eval --by`. Sessions deleted since the run group
 * under `unknown`.
 */
export const RUN_BREAKDOWNS = ["workload", "format"] as const;
export type RunBreakdownKey = (typeof RUN_BREAKDOWNS)[number];

export interface RunBreakdown {
  by: RunBreakdownKey;
  groups: GroupAggregate[];
}

export async function getRunBreakdown(db: Db, runId: string, by: RunBreakdownKey): Promise<RunBreakdown | null> {
  const run = await db.evalRun.findUnique({ where: { id: runId }, select: { settings: true } });
  if (!run) return null;
  const settings = EvalSettingsSchema.safeParse(JSON.parse(run.settings));
  const order = settings.success ? settings.data.policies.map(policyKey) : [];
  // The policies' own settings, as the results table above it (`tracefold eval --by` breaks down the same units).
  const records = recordsAt(await loadRunRecords(db, runId), undefined);
  const labels = await sessionLabels(db, [...new Set(records.map((r) => r.sessionId))], by);
  return { by, groups: aggregateBy(records, bySession(labels), order, by === "format" ? FORMAT_IDS : WORKLOADS) };
}

async function sessionLabels(db: Db, ids: string[], by: RunBreakdownKey): Promise<Map<string, string>> {
  const sessions = await db.traceSession.findMany({ where: { id: { in: ids } }, select: { id: true, format: true } });
  if (by === "format") return new Map(sessions.map((s) => [s.id, s.format]));
  const uses = await db.contextObjectRow.groupBy({
    by: ["sessionId", "tool", "rawTool"],
    where: { sessionId: { in: ids }, kind: "function" },
    _count: { _all: true },
  });
  const bySessionId = new Map<string, { tool: string | null; rawTool: string | null; count: number }[]>();
  for (const u of uses) {
    const list = bySessionId.get(u.sessionId) ?? [];
    list.push({ tool: u.tool, rawTool: u.rawTool, count: u._count._all });
    bySessionId.set(u.sessionId, list);
  }
  return new Map(sessions.map((s) => [s.id, classifyWorkload(bySessionId.get(s.id) ?? []).workload]));
}
