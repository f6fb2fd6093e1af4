import { z } from "zod";
import { buildAbItems, buildDependencyItems, buildFailureItems, DEFAULT_LEASE_MS, type QueueItem } from "@/lib/review";
import type { Db } from "../db/client";
import { loadJudgedCuts } from "./judged-cuts";
import { QUEUE_KINDS } from "./queue-kinds";

export const CreateQueueSchema = z.object({
  runId: z.string().min(1, "pick an evaluation run"),
  kind: z.enum(QUEUE_KINDS, { message: "kind must be dependency, failure or ab" }),
  name: z.string().trim().max(200, "name is at most 200 characters").optional(),
  overlap: z.coerce.number().int("overlap must be a whole number").min(1, "overlap must be at least 1").max(20, "overlap must be at most 20").default(1),
  leaseMinutes: z.coerce.number().gt(0, "lease timeout must be above 0 minutes").max(24 * 60, "lease timeout must be at most 1440 minutes").default(DEFAULT_LEASE_MS / 60_000),
  seed: z.coerce.number().int().min(0).max(2 ** 31 - 1).optional(),
});
export type CreateQueueInput = z.input<typeof CreateQueueSchema>;

export type CreateQueueOutcome =
  | { ok: true; queueId: string; items: number }
  | { ok: false; code: "invalid_input" | "not_found" | "empty_queue"; message: string; fieldErrors?: Record<string, string[]> };

/**
 * Creates a review queue from an evaluation run's stored results (admins). Items come from
 * lib/review's builders, in their stable order, keyed by their deterministic item ids; the queue
 * and its items are written in one transaction, so a queue is never half-built.
 */
export async function createQueue(db: Db, input: CreateQueueInput, createdById?: string): Promise<CreateQueueOutcome> {
  const parsed = CreateQueueSchema.safeParse(input);
  if (!parsed.success) {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (fieldErrors[String(issue.path[0] ?? "form")] ??= []).push(issue.message);
    return { ok: false, code: "invalid_input", message: parsed.error.issues.map((i) => i.message).join("; "), fieldErrors };
  }
  const { runId, kind, overlap, leaseMinutes } = parsed.data;
  const run = await db.evalRun.findUnique({ where: { id: runId }, select: { name: true } });
  if (!run) return { ok: false, code: "not_found", message: `no evaluation run ${runId}` };
  const seed = parsed.data.seed ?? hashSeed(runId);
  const rows = await loadJudgedCuts(db, runId);
  const items: QueueItem[] = kind === "dependency" ? buildDependencyItems(rows) : kind === "failure" ? buildFailureItems(rows) : buildAbItems(rows, { seed });
  if (items.length === 0) {
    const why = kind === "failure" ? "no judged cut was impacted" : kind === "ab" ? "no judge or policy disagreed at any cut" : "the run has no judged cuts yet";
    return { ok: false, code: "empty_queue", message: `nothing to review: ${why}` };
  }
  const name = parsed.data.name || `${kind} review of ${run.name}`;
  const queue = await db.$transaction(async (tx) => {
    const created = await tx.reviewQueue.create({ data: { name, kind, runId, overlap, leaseMs: Math.round(leaseMinutes * 60_000), seed, ...(createdById ? { createdById } : {}) } });
    await tx.reviewItem.createMany({
      data: items.map((item, position) => ({ queueId: created.id, itemKey: item.id, position, sessionId: item.ref.sessionId, cut: item.ref.cut, payload: JSON.stringify(item) })),
    });
    return created;
  });
  return { ok: true, queueId: queue.id, items: items.length };
}

/** A stable default A/B seed per run (FNV-1a of the id), so re-creating a queue gives the same sides. */
function hashSeed(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h & 0x7fffffff;
}
