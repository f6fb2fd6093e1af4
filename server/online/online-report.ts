import { UsageAggregator } from "@/lib/online/assignment/aggregate";
import { defaultAssignRule, formatAssignRule, labelToGroup } from "@/lib/online/assignment/assign";
import type { ColumnMapping } from "@/lib/online/usage/columns";
import { estimateOnline, type OnlineReport } from "@/lib/online/estimation/estimate";
import { describeGroupBalance, groupBalance } from "@/lib/online/estimation/group-balance";
import type { UsageIssue } from "@/lib/online/usage/schema";
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
  /** The assignment rule applied, in the URL's form (`column:group`): the user's, else the log's default. */
  assign: string;
  /** null when no call of the log falls in the window with both groups present. */
  report: OnlineReport | null;
  /** Why there is no report (a group left empty, no call at all) and what to try; null with a report. */
  warning: string | null;
}

/**
 * The online report of a stored log under the user's controls: the assignment rule is applied per
 * account at query time, slots are regrouped into local hours of the chosen zone, and lib/online
 * computes the rest — the same code path as `tracefold online`, so the same file gives the same
 * numbers (seed and iterations are the CLI's defaults). Returns null for an unknown log.
 */
export async function getOnlineReport(
  db: Db,
  logId: string,
  query: OnlineQuery,
  options: { seed?: number; iterations?: number } = {},
): Promise<OnlineStudioReport | null> {
  const row = await db.usageLog.findUnique({ where: { id: logId } });
  if (!row) return null;
  const log = toSummary(row);
  const slots = await loadSlots(db, logId);
  // Slots come in first-line order: the first holds the log's first readable row, which is what
  // the CLI's default reads too.
  const rule = query.assign ?? defaultAssignRule(log.mapping.group, slots[0]?.group);
  const aggregator = new UsageAggregator({
    rule,
    timeZone: query.tz,
    window: query.window,
    ...(query.surface.length > 0 ? { surfaces: query.surface } : {}),
    ...(query.volatile.length > 0 ? { volatile: query.volatile } : {}),
    ...(query.rollout !== undefined ? { rolloutAt: query.rollout } : {}),
  });
  const surfaces = new Set<string>();
  let labelled = false;
  for (const slot of slots) {
    surfaces.add(slot.surface);
    if (slot.group !== undefined && labelToGroup(slot.group) !== null) labelled = true;
    aggregator.addSlot(slot);
  }
  const balance = groupBalance(aggregator);
  const warning = describeGroupBalance(balance, { rule, groupColumn: labelled ? log.mapping.group : undefined, unassigned: aggregator.counts.unassigned });
  const report =
    balance.status === "ok" ? estimateOnline(aggregator, { seed: options.seed ?? 1, iterations: options.iterations ?? 2_000, prices: query.prices }) : null;
  return { log, surfaces: [...surfaces].sort(), assign: formatAssignRule(rule), report, warning };
}

export function toSummary(row: {
  id: string;
  fileName: string;
  format: string;
  bytes: number;
  rowCount: number;
  errorCount: number;
  errors: string;
  slotCount: number;
  mapping: string;
  firstAt: Date | null;
  lastAt: Date | null;
  createdAt: Date;
}): UsageLogSummary {
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
