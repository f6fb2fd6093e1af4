"use server";

import { revalidatePath } from "next/cache";
import { after } from "next/server";
import { z } from "zod";
import type { QueueItem } from "@/lib/review";
import { actionFail, actionOk, type ActionResult } from "@/server/action-result";
import { requireUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { addComment, CommentSchema } from "@/server/review/add-comment";
import { assignQueueItems } from "@/server/review/assign-items";
import { createQueue } from "@/server/review/create-queue";
import { loadItemActivity } from "@/server/review/item-activity";
import { getItemView, type ItemActivity } from "@/server/review/item-view";
import type { ItemView } from "@/server/review/item-view-types";
import { acquireItemLease, releaseItemLease } from "@/server/review/lease-item";
import { openItem, openNextItem, type NextOutcome } from "@/server/review/next-item";
import { getQueueAgreement, type QueueAgreement } from "@/server/review/queue-agreement";
import { getQueueSummary, type QueueSummary } from "@/server/review/queue-progress";
import { prepareQueueContexts } from "@/server/review/prepare-contexts";
import { loadQueueMeta } from "@/server/review/queue-state";
import { retractLabelVersion, saveLabel, SaveLabelSchema } from "@/server/review/save-label";
import { importQueueLabels } from "@/server/review/transfer-labels";

const clock = { now: Date.now };
const NavSchema = z.object({
  queueId: z.string().min(1),
  current: z.string().min(1).optional(),
  direction: z.enum(["next", "previous"]).optional(),
  itemKey: z.string().min(1).optional(),
});
const ItemSchema = z.object({ queueId: z.string().min(1), itemKey: z.string().min(1) });
const UndoSchema = ItemSchema.extend({ labelId: z.string().min(1), version: z.number().int().min(2) });
const ImportSchema = z.object({
  queueId: z.string().min(1),
  format: z.enum(["jsonl", "csv"], { message: "format must be jsonl or csv" }),
  text: z.string().max(20_000_000, "the file is over 20 MB"),
});

export type OpenResult = { item: ItemView; expiresAt: number } | { item: null };

/**
 * Admin: a queue from an evaluation run (kind; for A/B the pair and its cuts; a seeded sample;
 * blind mode for failure categories; overlap, lease timeout). Its items' view data is
 * computed right after the response, session by session (the queue page shows how far it got); an
 * item opened before then is computed on that open and stored.
 */
export async function createQueueAction(input: unknown): Promise<ActionResult<{ queueId: string; items: number }>> {
  const user = await requireUser("admin");
  const db = getDb();
  const outcome = await createQueue(db, (input ?? {}) as never, user.id);
  if (!outcome.ok) return actionFail(outcome.code, outcome.message, outcome.fieldErrors);
  after(() =>
    prepareQueueContexts(db, outcome.queueId).catch((error: unknown) => console.error(`review: preparing queue ${outcome.queueId}: ${String(error)}`)),
  );
  revalidatePath("/review");
  return actionOk({ queueId: outcome.queueId, items: outcome.items });
}

/** Reviewer: the next / previous item (leased to them), or one named item. */
export async function openItemAction(input: unknown): Promise<ActionResult<OpenResult>> {
  const user = await requireUser("reviewer");
  const parsed = NavSchema.safeParse(input);
  if (!parsed.success) return actionFail("invalid_input", parsed.error.issues[0]!.message);
  const { queueId, itemKey, current, direction } = parsed.data;
  const db = getDb();
  const outcome: NextOutcome = itemKey
    ? await openItem(db, queueId, itemKey, user.email, clock)
    : await openNextItem(db, queueId, user.email, clock, { ...(current ? { current } : {}), ...(direction ? { direction } : {}) });
  if (!outcome.ok) return actionFail(outcome.code, outcome.message);
  if (!outcome.item) return actionOk({ item: null });
  return withView(queueId, outcome.item, user.email, outcome.expiresAt);
}

/** Reviewer: append a label version (idempotent by the client's labelId + version). */
export async function saveLabelAction(input: unknown): Promise<ActionResult<{ labelId: string; version: number; duplicate: boolean }>> {
  const user = await requireUser("reviewer");
  const parsed = SaveLabelSchema.safeParse(input);
  if (!parsed.success) return actionFail("invalid_input", parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
  const outcome = await saveLabel(getDb(), parsed.data, user, clock);
  if (!outcome.ok) return actionFail(outcome.code, outcome.message, outcome.fieldErrors);
  return actionOk({ labelId: outcome.label.labelId, version: outcome.label.version, duplicate: outcome.duplicate });
}

/** Reviewer: an item's labels, completions and comments, reloaded after a save or an undo (not its whole context). */
export async function itemActivityAction(input: unknown): Promise<ActionResult<ItemActivity>> {
  const user = await requireUser("reviewer");
  const parsed = ItemSchema.safeParse(input);
  if (!parsed.success) return actionFail("invalid_input", parsed.error.issues[0]!.message);
  const outcome = await loadItemActivity(getDb(), parsed.data.queueId, parsed.data.itemKey, user.email);
  return outcome.ok ? actionOk(outcome.activity) : actionFail(outcome.code, outcome.message);
}

/** Reviewer: undo = a retracting version of one of their threads. */
export async function undoLabelAction(input: unknown): Promise<ActionResult<{ labelId: string; version: number }>> {
  const user = await requireUser("reviewer");
  const parsed = UndoSchema.safeParse(input);
  if (!parsed.success) return actionFail("invalid_input", parsed.error.issues[0]!.message);
  const outcome = await retractLabelVersion(getDb(), parsed.data, user, clock);
  if (!outcome.ok) return actionFail(outcome.code, outcome.message);
  return actionOk({ labelId: outcome.label.labelId, version: outcome.label.version });
}

/** Reviewer: keep the open item's lease alive (the screen's heartbeat). */
export async function renewItemAction(input: unknown): Promise<ActionResult<{ expiresAt: number }>> {
  const user = await requireUser("reviewer");
  const parsed = ItemSchema.safeParse(input);
  if (!parsed.success) return actionFail("invalid_input", parsed.error.issues[0]!.message);
  const db = getDb();
  const meta = await loadQueueMeta(db, parsed.data.queueId);
  if (!meta) return actionFail("not_found", `no review queue ${parsed.data.queueId}`);
  const lease = await acquireItemLease(db, parsed.data.queueId, parsed.data.itemKey, user.email, meta.leaseMs, clock);
  return lease.ok
    ? actionOk({ expiresAt: lease.expiresAt })
    : actionFail(lease.code, lease.code === "held" ? `${lease.heldBy} has taken this item over` : lease.message);
}

/** Reviewer: give an item back (leaving the page, or skipping). */
export async function releaseItemAction(input: unknown): Promise<ActionResult<{ released: boolean }>> {
  const user = await requireUser("reviewer");
  const parsed = ItemSchema.safeParse(input);
  if (!parsed.success) return actionFail("invalid_input", parsed.error.issues[0]!.message);
  return actionOk(await releaseItemLease(getDb(), parsed.data.queueId, parsed.data.itemKey, user.email));
}

/** Reviewer: a comment on an item. */
export async function commentAction(input: unknown): Promise<ActionResult<{ saved: true }>> {
  const user = await requireUser("reviewer");
  const parsed = CommentSchema.safeParse(input);
  if (!parsed.success) return actionFail("invalid_input", parsed.error.issues[0]!.message);
  const outcome = await addComment(getDb(), parsed.data, user);
  return outcome.ok ? actionOk({ saved: true }) : actionFail(outcome.code, outcome.message);
}

/** Viewer: a queue's progress (cheap), refreshed by the labeling screen after every save. */
export async function queueStatusAction(queueId: unknown): Promise<ActionResult<{ summary: QueueSummary }>> {
  await requireUser("viewer");
  const id = z.string().min(1).safeParse(queueId);
  if (!id.success) return actionFail("invalid_input", "queue id is required");
  const summary = await getQueueSummary(getDb(), id.data, clock);
  if (!summary) return actionFail("not_found", `no review queue ${id.data}`);
  return actionOk({ summary });
}

/** Viewer: a queue's agreement, asked for on its own (debounced) by the labeling screen; memoised per label version. */
export async function queueAgreementAction(queueId: unknown): Promise<ActionResult<{ agreement: QueueAgreement }>> {
  await requireUser("viewer");
  const id = z.string().min(1).safeParse(queueId);
  if (!id.success) return actionFail("invalid_input", "queue id is required");
  const agreement = await getQueueAgreement(getDb(), id.data, clock);
  if (!agreement) return actionFail("not_found", `no review queue ${id.data}`);
  return actionOk({ agreement });
}

/** Admin: assign the queue, or a slice of its items, to named reviewers (or clear the slice's assignment). */
export async function assignItemsAction(input: unknown): Promise<ActionResult<{ items: number }>> {
  await requireUser("admin");
  const outcome = await assignQueueItems(getDb(), (input ?? {}) as never);
  if (!outcome.ok) return actionFail(outcome.code, outcome.message, outcome.fieldErrors);
  revalidatePath(`/review/${(input as { queueId: string }).queueId}`);
  return actionOk({ items: outcome.items });
}

/** Admin: import labels (JSONL or CSV); all or nothing, with located errors. */
export async function importLabelsAction(input: unknown): Promise<ActionResult<{ imported: number; skipped: number }>> {
  await requireUser("admin");
  const parsed = ImportSchema.safeParse(input);
  if (!parsed.success) return actionFail("invalid_input", parsed.error.issues[0]!.message);
  const outcome = await importQueueLabels(getDb(), parsed.data.queueId, parsed.data.text, parsed.data.format);
  if (!outcome.ok) {
    const fieldErrors = { file: outcome.errors.slice(0, 50).map((e) => `line ${e.line}, ${e.field}: ${e.message} (expected ${e.expected})`) };
    return actionFail(outcome.code, outcome.message, fieldErrors);
  }
  revalidatePath(`/review/${parsed.data.queueId}`);
  return actionOk({ imported: outcome.imported, skipped: outcome.skipped });
}

async function withView(queueId: string, item: QueueItem, reviewer: string, expiresAt: number): Promise<ActionResult<OpenResult>> {
  const db = getDb();
  const meta = await loadQueueMeta(db, queueId);
  const view = meta && (await getItemView(db, queueId, meta.runId, item, reviewer));
  if (!view) return actionFail("not_found", "the item's session or evaluation run no longer exists");
  return actionOk({ item: view, expiresAt });
}
