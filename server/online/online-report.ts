import { UsageAggregator } from "@/lib/online/aggregate";
import type { ColumnMapping } from "@/lib/online/columns";
import { estimateOnline, type OnlineReport } from "@/lib/online/estimate";
import type { UsageIssue } from "@/lib/online/schema";
import type { Db } from "../db/client";
import { loadSlots } from "./load-slots";
import type { OnlineQuery } from "./report-query";

export interface UsageLogSummary {
  id: string;
  fileName: string;
  format: string;
  bytes: number;
  rowCount: number;
  errorCount: number;
  errors: UsageIssue[];
  slotCount: number;
  mapping: ColumnMapping;
  firstAt: string | null;
  lastAt: string | null;
  createdAt: string;
}

export interface OnlineStudioReport {
  log: UsageLogSummary;
  /** Surfaces present in the log (for the coverage filter), `""` meaning "none written". */
  surfaces: string[];
  /** null when no call of the log falls in the window with both groups present. */
  report: OnlineReport | null;
}

/**
 * The online report of a stored log under the user's controls: the assignment rule is applied per
 * account at query time, slots are regrouped into local hours of the chosen zone, and lib/online
 * computes the rest — the same code path as `tracefold online`, so the same file gives the same
 * numbers (seed and iterations are the CLI's defaults). Returns null for an unknown log.
 */
export async function getOnlineReport(db: Db, logId: string, query: OnlineQuery, options: { seed?: number; iterations?: number } = {}): Promise<OnlineStudioReport | null> {
  const row = await db.usageLog.findUnique({ where: { id: logId } });
  if (!row) return null;
  const slots = await loadSlots(db, logId);
  const aggregator = new UsageAggregator({
    rule: query.assign,
    timeZone: query.tz,
    window: query.window,
    ...(query.surface.length > 0 ? { surfaces: query.surface } : {}),
    ...(query.volatile.length > 0 ? { volatile: query.volatile } : {}),
    ...(query.rollout !== undefined ? { rolloutAt: query.rollout } : {}),
  });
  const surfaces = new Set<string>();
  for (const slot of slots) {
    surfaces.add(slot.surface);
    aggregator.addSlot(slot);
  }
  const report = hasBothGroups(aggregator) ? estimateOnline(aggregator, { seed: options.seed ?? 1, iterations: options.iterations ?? 2_000, prices: query.prices }) : null;
  return { log: toSummary(row), surfaces: [...surfaces].sort(), report };
}

/** The estimate needs post-rollout calls in both groups (a filter can leave one empty). */
function hasBothGroups(aggregator: UsageAggregator): boolean {
  const seen = new Set<string>();
  for (const account of aggregator.accounts.values()) if (account.post.size > 0) seen.add(account.group);
  return seen.size === 2;
}

export function toSummary(row: { id: string; fileName: string; format: string; bytes: number; rowCount: number; errorCount: number; errors: string; slotCount: number; mapping: string; firstAt: Date | null; lastAt: Date | null; createdAt: Date }): UsageLogSummary {
  return {
    id: row.id,
    fileName: row.fileName,
    format: row.format,
    bytes: row.bytes,
    rowCount: row.rowCount,
    errorCount: row.errorCount,
    errors: JSON.parse(row.errors) as UsageIssue[],
    slotCount: row.slotCount,
    mapping: JSON.parse(row.mapping) as ColumnMapping,
    firstAt: row.firstAt?.toISOString() ?? null,
    lastAt: row.lastAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}
