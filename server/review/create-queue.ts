import { z } from "zod";
import { AB_CUTS, buildAbItems, buildDependencyItems, buildFailureItems, DEFAULT_LEASE_MS, sampleItems, type QueueItem } from "@/lib/review";
import type { Db } from "../db/client";
import { policyKey, EvalSettingsSchema } from "../evaluation/run-settings";
import { loadJudgedCuts } from "./judged-cuts";
import { RUN_QUEUE_KINDS } from "./queue-kinds";

/** An empty form field is "not given", not 0 (z.coerce would turn "" into 0). */
const blankToUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);

/** The most items a sample may ask for (a queue of more is no longer a sample a person labels). */
export const MAX_SAMPLE_SIZE = 100_000;

export const CreateQueueSchema = z
  .object({
    runId: z.string().min(1, "pick an evaluation run"),
    kind: z.enum(RUN_QUEUE_KINDS, { message: "kind must be dependency, failure or ab (a calibration queue is imported from a gold file)" }),
    name: z.string().trim().max(200, "name is at most 200 characters").optional(),
    overlap: z.coerce.number().int("overlap must be a whole number").min(1, "overlap must be at least 1").max(20, "overlap must be at most 20").default(1),
    leaseMinutes: z.coerce
      .number()
      .gt(0, "lease timeout must be above 0 minutes")
      .max(24 * 60, "lease timeout must be at most 1440 minutes")
      .default(DEFAULT_LEASE_MS / 60_000),
    seed: z.preprocess(
      blankToUndefined,
      z.coerce
        .number()
        .int("seed must be a whole number")
        .min(0, "seed must be at least 0")
        .max(2 ** 31 - 1, "seed must be at most 2147483647")
        .optional(),
    ),
    /** A/B queues: the two policies compared (keys of the run's policies). */
    policyA: z.preprocess(blankToUndefined, z.string().trim().min(1).max(200, "policy A is at most 200 characters").optional()),
    policyB: z.preprocess(blankToUndefined, z.string().trim().min(1).max(200, "policy B is at most 200 characters").optional()),
    /** A/B queues: only the cuts where the judge tells the pair apart (default), or every cut judged for both. */
    cuts: z.preprocess(blankToUndefined, z.enum(AB_CUTS, { message: "cuts must be disagreements or all" }).optional()),
    /** Keep a seeded sample of this many items (in queue order); none: every item. */
    sampleSize: z.preprocess(
      blankToUndefined,
      z.coerce
        .number()
        .int("sample size must be a whole number")
        .min(1, "sample size must be at least 1")
        .max(MAX_SAMPLE_SIZE, `sample size must be at most ${MAX_SAMPLE_SIZE}`)
        .optional(),
    ),
    /** Failure-category queues: hide the judge's category and culprit until the reviewer has answered (default on). */
    blind: z.boolean({ message: "blind must be true or false" }).optional(),
  })
  .superRefine((value, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    if (value.kind === "ab") {
      if (!value.policyA) issue("policyA", "pick policy A: an A/B queue compares two of the run's policies");
      if (!value.policyB) issue("policyB", "pick policy B: an A/B queue compares two of the run's policies");
      if (value.policyA && value.policyA === value.policyB) issue("policyB", `policy B must differ from policy A (both are ${value.policyA})`);
    } else {
      if (value.policyA !== undefined) issue("policyA", "a policy pair is chosen only for an A/B queue");
      if (value.policyB !== undefined) issue("policyB", "a policy pair is chosen only for an A/B queue");
      if (value.cuts !== undefined) issue("cuts", "cuts are chosen only for an A/B queue");
    }
    if (value.blind === true && value.kind !== "failure") issue("blind", "blind mode is for failure-category queues (A/B items are always blind)");
  });
export type CreateQueueInput = z.input<typeof CreateQueueSchema>;

export type CreateQueueOutcome =
  | { ok: true; queueId: string; items: number }
  | { ok: false; code: "invalid_input" | "not_found" | "empty_queue"; message: string; fieldErrors?: Record<string, string[]> };

/**
 * Creates a review queue from an evaluation run's stored results (admins). Items come from
 * lib/review's builders, in their stable order, keyed by their deterministic item ids; an A/B queue
 * holds one chosen pair of the run's policies; a sample keeps a seeded subset in the same order.
 * The queue, its settings (pair, cuts, sample, seed, blind mode) and its items are written in one
 * transaction, so a queue is never half-built.
 */
export async function createQueue(db: Db, input: CreateQueueInput, createdById?: string): Promise<CreateQueueOutcome> {
  const parsed = CreateQueueSchema.safeParse(input);
  if (!parsed.success) {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (fieldErrors[String(issue.path[0] ?? "form")] ??= []).push(issue.message);
    return { ok: false, code: "invalid_input", message: parsed.error.issues.map((i) => i.message).join("; "), fieldErrors };
  }
  const { runId, kind, overlap, leaseMinutes, sampleSize } = parsed.data;
  const run = await db.evalRun.findUnique({ where: { id: runId }, select: { name: true, settings: true } });
  if (!run) return { ok: false, code: "not_found", message: `no evaluation run ${runId}` };
  const pair = kind === "ab" ? ([parsed.data.policyA!, parsed.data.policyB!] as const) : null;
  if (pair) {
    const refused = unknownPolicies(run.settings, pair);
    if (refused) return { ok: false, code: "invalid_input", message: Object.values(refused).flat().join("; "), fieldErrors: refused };
  }
  const cuts = kind === "ab" ? (parsed.data.cuts ?? "disagreements") : null;
  const seed = parsed.data.seed ?? hashSeed(runId);
  const rows = await loadJudgedCuts(db, runId);
  const built: QueueItem[] =
    kind === "dependency"
      ? buildDependencyItems(rows)
      : kind === "failure"
        ? buildFailureItems(rows)
        : buildAbItems(rows, { seed, pairs: [pair!], cuts: cuts! });
  if (built.length === 0) return { ok: false, code: "empty_queue", message: `nothing to review: ${emptyReason(kind, pair, cuts)}` };
  const items = sampleSize ? sampleItems(built, sampleSize, seed) : built;
  const name = parsed.data.name || `${kind} review of ${run.name}${pair ? ` (${pair[0]} vs ${pair[1]})` : ""}`;
  const settings = {
    seed,
    policyA: pair?.[0] ?? null,
    policyB: pair?.[1] ?? null,
    cuts,
    sampleSize: sampleSize ? items.length : null,
    sampledFrom: sampleSize ? built.length : null,
    blind: parsed.data.blind ?? kind === "failure",
  };
  const queue = await db.$transaction(async (tx) => {
    const created = await tx.reviewQueue.create({
      data: { name, kind, runId, overlap, leaseMs: Math.round(leaseMinutes * 60_000), ...settings, ...(createdById ? { createdById } : {}) },
    });
    await tx.reviewItem.createMany({
      data: items.map((item, position) => ({
        queueId: created.id,
        itemKey: item.id,
        position,
        sessionId: item.ref.sessionId,
        cut: item.ref.cut,
        payload: JSON.stringify(item),
      })),
    });
    return created;
  });
  return { ok: true, queueId: queue.id, items: items.length };
}

/** Field errors for pair members that are not policies of the run (keys as results store them); null when both are. */
function unknownPolicies(storedSettings: string, pair: readonly [string, string]): Record<string, string[]> | null {
  const settings = EvalSettingsSchema.safeParse(safeJson(storedSettings));
  if (!settings.success) return { runId: ["the run's stored settings are invalid, so its policies are unknown"] };
  const known = settings.data.policies.map(policyKey);
  const errors: Record<string, string[]> = {};
  pair.forEach((policy, i) => {
    if (!known.includes(policy)) errors[i === 0 ? "policyA" : "policyB"] = [`${policy} is not a policy of this run (its policies: ${known.join(", ")})`];
  });
  return Object.keys(errors).length > 0 ? errors : null;
}

function emptyReason(kind: string, pair: readonly [string, string] | null, cuts: string | null): string {
  if (kind === "failure") return "no judged cut was impacted";
  if (kind === "dependency") return "the run has no judged cuts yet";
  return cuts === "all"
    ? `no cut was judged for both ${pair![0]} and ${pair![1]}`
    : `the judge never told ${pair![0]} and ${pair![1]} apart at any cut (choose "all cuts" to review them anyway)`;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A stable default seed per run (FNV-1a of the id), so re-creating a queue gives the same sides and sample. */
function hashSeed(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h & 0x7fffffff;
}
