import {
  allVersions,
  exportCsv,
  exportJsonl,
  importLabels,
  parseCsv,
  parseJsonl,
  itemIdForLabel,
  labelSubject,
  type ImportError,
  type LabelFormat,
  type ReviewLabel,
} from "@/lib/review";
import type { Db } from "../db/client";
import { isUniqueViolation } from "../db/unique-violation";
import { labelBody, loadHistory } from "./label-rows";
import { loadQueueMeta } from "./queue-state";

/**
 * Export and import of a queue's labels through lib/review/transfer: the export is every version
 * ever stored (JSONL or CSV); an import is all or nothing, every problem located by line and field,
 * versions already stored with the same content skipped, and every label must belong to an item of
 * this queue (its cut, policy or pair), so labels never land on the wrong queue.
 */
export async function exportQueueLabels(db: Db, queueId: string, format: LabelFormat): Promise<string | null> {
  if (!(await loadQueueMeta(db, queueId))) return null;
  const labels = allVersions(await loadHistory(db, queueId));
  return format === "jsonl" ? exportJsonl(labels) : exportCsv(labels);
}

export type ImportOutcome =
  { ok: true; imported: number; skipped: number } | { ok: false; code: "not_found" | "invalid_file"; message: string; errors: ImportError[] };

/** Imported labels keep their reviewer (email); the row's reviewerId is the user's id when the email is known. */
export async function importQueueLabels(db: Db, queueId: string, text: string, format: LabelFormat): Promise<ImportOutcome> {
  if (!(await loadQueueMeta(db, queueId))) return { ok: false, code: "not_found", message: `no review queue ${queueId}`, errors: [] };
  const keys = new Set((await db.reviewItem.findMany({ where: { queueId }, select: { itemKey: true } })).map((r) => r.itemKey));
  const result = importLabels(text, format, await loadHistory(db, queueId));
  if (!result.ok)
    return {
      ok: false,
      code: "invalid_file",
      message: `${result.errors.length} problem${result.errors.length === 1 ? "" : "s"} in the file; nothing was imported`,
      errors: result.errors,
    };
  const errors: ImportError[] = [];
  const lines = new Map((format === "jsonl" ? parseJsonl(text) : parseCsv(text)).records.map((r) => [`${r.label.labelId}\u0000${r.label.version}`, r.line]));
  const placed = result.labels.map((label) => ({ label, itemKey: itemKeyOf(label), line: lines.get(`${label.labelId}\u0000${label.version}`) ?? 0 }));
  for (const { label, itemKey, line } of placed) {
    if (!keys.has(itemKey))
      errors.push({
        line,
        field: "ref",
        expected: "an item of this queue",
        message: `label ${label.labelId} version ${label.version} is about ${labelSubject(label)}, which is not in this queue`,
      });
  }
  if (errors.length > 0)
    return {
      ok: false,
      code: "invalid_file",
      message: `${errors.length} label${errors.length === 1 ? "" : "s"} not for this queue; nothing was imported`,
      errors,
    };
  const users = new Map(
    (await db.user.findMany({ where: { email: { in: [...new Set(result.labels.map((l) => l.reviewer))] } }, select: { id: true, email: true } })).map((u) => [
      u.email,
      u.id,
    ]),
  );
  try {
    await db.reviewLabelRow.createMany({
      data: placed.map(({ label, itemKey }) => ({
        queueId,
        itemKey,
        labelId: label.labelId,
        version: label.version,
        kind: label.kind,
        reviewerId: users.get(label.reviewer) ?? label.reviewer,
        reviewer: label.reviewer,
        retracted: label.retracted === true,
        body: labelBody(label),
        createdAt: new Date(label.createdAt),
      })),
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return { ok: false, code: "invalid_file", message: "some label ids of the file are already used by another queue; nothing was imported", errors: [] };
  }
  return { ok: true, imported: result.labels.length, skipped: result.skipped };
}

/** The item a label belongs to: its completing item, or for a dependency decision its cut's item. */
function itemKeyOf(label: ReviewLabel): string {
  return itemIdForLabel(label) ?? itemIdForLabel({ ...label, kind: "cut_review" } as ReviewLabel)!;
}
