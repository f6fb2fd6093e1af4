import { z } from "zod";
import { appendLabel, buildHistory, LabelHistoryError, ReviewLabelSchema, retractLabel, type Clock, type QueueItem, type ReviewLabel } from "@/lib/review";
import type { Db } from "../db/client";
import { isUniqueViolation } from "../db/unique-violation";
import { labelBody, loadLabels, sameContent } from "./label-rows";
import { libKind, type ReviewQueueKind } from "./queue-kinds";
import { loadQueueMeta, queueItem } from "./queue-state";

/**
 * Saving a label version. The client generates the thread id (`labelId`) and names the version it
 * writes, so a save is idempotent: a retry after a dropped response finds its (labelId, version)
 * stored with the same content and succeeds without a second row; a different label under the same
 * (labelId, version) is refused, never overwritten. The unique index on (labelId, version) decides
 * between two concurrent saves. The reviewer, date, cut, policy and A/B sides come from the session
 * and the item, never from the client.
 */
export const SaveLabelSchema = z.object({
  queueId: z.string().min(1),
  itemKey: z.string().min(1),
  labelId: z.string().min(8, "labelId must be a client-generated id of at least 8 characters").max(200),
  version: z.number().int().min(1),
  /** The label's own fields (decision, type, spans, category, verdict, …); meta fields are set here. */
  draft: z.record(z.string(), z.unknown()),
});
export type SaveLabelInput = z.infer<typeof SaveLabelSchema>;

export type SaveOutcome =
  | { ok: true; label: ReviewLabel; duplicate: boolean }
  | { ok: false; code: "invalid_input" | "not_found" | "conflict"; message: string; fieldErrors?: Record<string, string[]> };

const KINDS_BY_QUEUE: Record<ReviewQueueKind, readonly string[]> = {
  dependency: ["dependency", "cut_review"],
  failure: ["failure_category"],
  ab: ["ab"],
  calibration: ["view_verdict"],
};
const SERVER_FIELDS = ["labelId", "version", "supersedes", "reviewer", "createdAt", "ref", "policy", "sides", "retracted", "budget", "viewDigest"];

export async function saveLabel(db: Db, input: SaveLabelInput, reviewer: { id: string; email: string }, clock: Clock): Promise<SaveOutcome> {
  const located = await locate(db, input.queueId, input.itemKey);
  if (!located.ok) return located;
  const { kind, item } = located;
  const draft = input.draft;
  const forbidden = SERVER_FIELDS.filter((f) => f in draft);
  if (forbidden.length > 0) return { ok: false, code: "invalid_input", message: `${forbidden.join(", ")} are set by the server` };
  if (!KINDS_BY_QUEUE[kind].includes(String(draft.kind)))
    return { ok: false, code: "invalid_input", message: `a ${kind} queue takes ${KINDS_BY_QUEUE[kind].join(" or ")} labels` };
  const candidate = {
    ...draft,
    labelId: input.labelId,
    version: input.version,
    supersedes: input.version === 1 ? null : input.version - 1,
    reviewer: reviewer.email,
    createdAt: new Date(clock.now()).toISOString(),
    ref: item.ref,
    ...(item.queue === "failure_category" ? { policy: item.policy } : {}),
    ...(item.queue === "ab" ? { sides: item.sides } : {}),
    ...(item.queue === "view_verdict"
      ? { policy: item.policy, ...(item.budget !== undefined ? { budget: item.budget } : {}), viewDigest: item.viewDigest }
      : {}),
  };
  const parsed = ReviewLabelSchema.safeParse(candidate);
  if (!parsed.success) {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (fieldErrors[issue.path.join(".") || "draft"] ??= []).push(issue.message);
    return {
      ok: false,
      code: "invalid_input",
      message: parsed.error.issues.map((i) => `${i.path.join(".") || "label"}: ${i.message}`).join("; "),
      fieldErrors,
    };
  }
  const sidecars = item.queue === "view_verdict" ? item.sidecars : [];
  const restores = parsed.data.kind === "view_verdict" ? unknownRestores(parsed.data.restores ?? [], sidecars) : [];
  if (restores.length > 0) {
    const message = `restores: ${restores.join(", ")} ${restores.length === 1 ? "names" : "name"} no sidecar of this view (expected a digest, or its first 12+ characters, of: ${sidecars.map((d) => d.slice(0, 12)).join(", ") || "none — the view names no sidecar"})`;
    return { ok: false, code: "invalid_input", message, fieldErrors: { restores: [message] } };
  }
  return appendVersion(db, input.queueId, item, parsed.data, reviewer.id);
}

/** Digests (or prefixes) a restorable label names that are not a sidecar of the view. */
function unknownRestores(restores: readonly string[], sidecars: readonly string[]): string[] {
  return restores.filter((r) => !sidecars.some((d) => d.startsWith(r)));
}

/** Undo: a new version of the reviewer's thread that retracts it (idempotent like any save). */
export async function retractLabelVersion(
  db: Db,
  input: { queueId: string; itemKey: string; labelId: string; version: number },
  reviewer: { id: string; email: string },
  clock: Clock,
): Promise<SaveOutcome> {
  const located = await locate(db, input.queueId, input.itemKey);
  if (!located.ok) return located;
  const thread = (await loadLabels(db, input.queueId, { itemKey: input.itemKey })).filter((l) => l.labelId === input.labelId);
  const stored = thread.find((l) => l.version === input.version);
  if (stored)
    return stored.retracted && stored.reviewer === reviewer.email
      ? { ok: true, label: stored, duplicate: true }
      : { ok: false, code: "conflict", message: `label ${input.labelId} already has version ${input.version}` };
  const previous = thread.find((l) => l.version === input.version - 1);
  if (!previous) return { ok: false, code: "not_found", message: `label ${input.labelId} has no version ${input.version - 1} to undo` };
  if (previous.reviewer !== reviewer.email) return { ok: false, code: "conflict", message: "only the reviewer who wrote a label can undo it" };
  if (previous.retracted) return { ok: false, code: "conflict", message: `label ${input.labelId} is already retracted` };
  return appendVersion(db, input.queueId, located.item, retractLabel(previous, clock), reviewer.id);
}

async function locate(db: Db, queueId: string, itemKey: string) {
  const queue = await loadQueueMeta(db, queueId);
  if (!queue) return { ok: false as const, code: "not_found" as const, message: `no review queue ${queueId}` };
  const item = await queueItem(db, queueId, itemKey);
  if (!item) return { ok: false as const, code: "not_found" as const, message: `no item ${itemKey} in this queue` };
  if (item.queue !== libKind(queue.kind)) return { ok: false as const, code: "not_found" as const, message: `item ${itemKey} is not a ${queue.kind} item` };
  return { ok: true as const, kind: queue.kind, item };
}

async function appendVersion(db: Db, queueId: string, item: QueueItem, label: ReviewLabel, reviewerId: string): Promise<SaveOutcome> {
  // A first version starts a thread, so there is nothing to check it against: it is inserted at
  // once (one statement, no read). A clash on (labelId, version) — a retry, or an id used before —
  // goes through the checks below, which answer it exactly as when the thread is read first.
  if (label.version === 1 && (await insertRow(db, queueId, item, label, reviewerId))) return { ok: true, label, duplicate: false };
  const existing = await db.reviewLabelRow.findMany({ where: { labelId: label.labelId }, orderBy: { version: "asc" } });
  if (existing.some((r) => r.queueId !== queueId || r.itemKey !== item.id))
    return { ok: false, code: "conflict", message: `label ${label.labelId} belongs to another item` };
  const thread = existing.map((r) => ReviewLabelSchema.parse(JSON.parse(r.body)));
  const same = thread.find((l) => l.version === label.version);
  if (same)
    return sameContent(label, same)
      ? { ok: true, label: same, duplicate: true }
      : { ok: false, code: "conflict", message: `label ${label.labelId} version ${label.version} is already stored with other content; reload and save again` };
  try {
    appendLabel(buildHistory(thread), label);
  } catch (error) {
    if (error instanceof LabelHistoryError) return { ok: false, code: "conflict", message: error.message };
    throw error;
  }
  if (!(await insertRow(db, queueId, item, label, reviewerId))) {
    // A concurrent retry of the same save won the insert: the same content is success.
    const row = await db.reviewLabelRow.findUnique({ where: { labelId_version: { labelId: label.labelId, version: label.version } } });
    const stored = row ? ReviewLabelSchema.parse(JSON.parse(row.body)) : undefined;
    if (stored && sameContent(label, stored)) return { ok: true, label: stored, duplicate: true };
    return { ok: false, code: "conflict", message: `label ${label.labelId} version ${label.version} was saved concurrently with other content` };
  }
  return { ok: true, label, duplicate: false };
}

/** Inserts one label row; false when (labelId, version) is already stored (the unique index decides). */
async function insertRow(db: Db, queueId: string, item: QueueItem, label: ReviewLabel, reviewerId: string): Promise<boolean> {
  try {
    await db.reviewLabelRow.create({
      data: {
        queueId,
        itemKey: item.id,
        labelId: label.labelId,
        version: label.version,
        kind: label.kind,
        reviewerId,
        reviewer: label.reviewer,
        retracted: label.retracted === true,
        body: labelBody(label),
        createdAt: new Date(label.createdAt),
      },
    });
    return true;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return false;
  }
}
