import { z } from "zod";
import type { Db } from "../db/client";
import { hasRole, isRole } from "../auth/roles";

/**
 * Assigning a queue, or a slice of it (positions `from`–`to`, 1-based and inclusive as the admin
 * sees them), to named reviewers. An assigned item is offered only to its assignees (lib/review
 * canClaim); `clear` gives the slice back to everyone. Assignees are reviewers' e-mails — the
 * identity leases and labels carry — and must be accounts that may label (reviewer or admin).
 * Labels already saved stay: assignment decides who is offered an item, never whose label counts.
 */
export const AssignItemsSchema = z
  .object({
    queueId: z.string().min(1, "queue id is required"),
    reviewers: z.array(z.string().trim().toLowerCase().email("each assignee must be an e-mail address")).max(200, "at most 200 assignees").default([]),
    from: z.coerce.number().int("from must be a whole number").min(1, "from must be at least 1").optional(),
    to: z.coerce.number().int("to must be a whole number").min(1, "to must be at least 1").optional(),
    mode: z.enum(["assign", "clear"], { message: "mode must be assign or clear" }).default("assign"),
  })
  .refine((v) => v.mode === "clear" || v.reviewers.length > 0, { message: "pick at least one reviewer", path: ["reviewers"] })
  .refine((v) => v.from === undefined || v.to === undefined || v.from <= v.to, { message: "from must not be after to", path: ["to"] });
export type AssignItemsInput = z.input<typeof AssignItemsSchema>;

export type AssignOutcome =
  { ok: true; items: number } | { ok: false; code: "invalid_input" | "not_found"; message: string; fieldErrors?: Record<string, string[]> };

export async function assignQueueItems(db: Db, input: AssignItemsInput): Promise<AssignOutcome> {
  const parsed = AssignItemsSchema.safeParse(input);
  if (!parsed.success) {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (fieldErrors[String(issue.path[0] ?? "form")] ??= []).push(issue.message);
    return { ok: false, code: "invalid_input", message: parsed.error.issues.map((i) => i.message).join("; "), fieldErrors };
  }
  const { queueId, from, to, mode } = parsed.data;
  const reviewers = [...new Set(parsed.data.reviewers)].sort();
  const queue = await db.reviewQueue.findUnique({ where: { id: queueId }, select: { id: true } });
  if (!queue) return { ok: false, code: "not_found", message: `no review queue ${queueId}` };
  if (mode === "assign") {
    const users = await db.user.findMany({ where: { email: { in: reviewers } }, select: { email: true, role: true } });
    const canLabel = new Set(users.filter((u) => isRole(u.role) && hasRole(u.role, "reviewer")).map((u) => u.email));
    const refused = reviewers.filter((r) => !canLabel.has(r));
    if (refused.length > 0)
      return {
        ok: false,
        code: "invalid_input",
        message: `not a reviewer account: ${refused.join(", ")}`,
        fieldErrors: { reviewers: refused.map((r) => `${r} is not a reviewer account`) },
      };
  }
  const position = { ...(from !== undefined ? { gte: from - 1 } : {}), ...(to !== undefined ? { lte: to - 1 } : {}) };
  const updated = await db.reviewItem.updateMany({
    where: { queueId, ...(from !== undefined || to !== undefined ? { position } : {}) },
    data: { assignees: mode === "assign" ? JSON.stringify(reviewers) : null },
  });
  return { ok: true, items: updated.count };
}

/** Per assignee, how many of the queue's items are assigned to them; `open` counts items offered to everyone. */
export async function queueAssignments(db: Db, queueId: string): Promise<{ open: number; byReviewer: Record<string, number> }> {
  const rows = await db.reviewItem.findMany({ where: { queueId }, select: { assignees: true } });
  const byReviewer: Record<string, number> = {};
  let open = 0;
  for (const row of rows) {
    const assignees = parseAssignees(row.assignees);
    if (!assignees) open++;
    else for (const r of assignees) byReviewer[r] = (byReviewer[r] ?? 0) + 1;
  }
  return { open, byReviewer };
}

/** The stored column → the assignees, or null when the item is offered to everyone. */
export function parseAssignees(column: string | null): string[] | null {
  if (!column) return null;
  const list = z.array(z.string()).parse(JSON.parse(column));
  return list.length > 0 ? list : null;
}
