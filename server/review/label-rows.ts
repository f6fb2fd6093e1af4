import { buildHistory, ReviewLabelSchema, type LabelHistory, type ReviewLabel } from "@/lib/review";
import type { Db } from "../db/client";

/**
 * Label rows ↔ lib/review labels. Rows are append-only versions; `body` is the label JSON, parsed
 * back through the schema so a row that no longer parses fails loudly instead of being skipped.
 */
export async function loadLabels(db: Db, queueId: string, where: { itemKey?: string } = {}): Promise<ReviewLabel[]> {
  const rows = await db.reviewLabelRow.findMany({ where: { queueId, ...where }, select: { body: true }, orderBy: [{ labelId: "asc" }, { version: "asc" }] });
  return rows.map((row) => ReviewLabelSchema.parse(JSON.parse(row.body)));
}

export async function loadHistory(db: Db, queueId: string): Promise<LabelHistory> {
  return buildHistory(await loadLabels(db, queueId));
}

/** The stored form of a label: the same JSON lib/review exports (canonical key order). */
export function labelBody(label: ReviewLabel): string {
  return JSON.stringify(ReviewLabelSchema.parse(label));
}

/** The body without its date: a retried save is the same label when this matches. */
export function sameContent(a: ReviewLabel, b: ReviewLabel): boolean {
  return labelBody({ ...a, createdAt: b.createdAt }) === labelBody(b);
}
