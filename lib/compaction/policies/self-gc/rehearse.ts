import type { GcPlan } from "../../planner/plan-types";
import { materializeView } from "../../projection/materialize";
import type { ViewMessage } from "../../projection/types";
import type { PolicyContext } from "../types";
import { resolveEdits, type DroppedEdit, type ResolvedEdit } from "./normalise";
import { buildProjection, cloneEditPlan, type Projection } from "./projection";

/**
 * Seed 000's rehearsal (Listing 5: "normalize targets and remove cut-turn edits; apply V ∪ plan
 * locally; if the projection saves enough tokens and is object-valid: P ← plan"). The plan is
 * replayed on a copy; nothing reaches the active view here. The compression threshold defaults to
 * the paper's 30% of the prefix (Table 6).
 */
export const DEFAULT_COMPRESSION_THRESHOLD = 0.3;

export type RehearsalStatus = "accepted" | "pending" | "empty";

export interface Rehearsal {
  /** accepted: saves at least the threshold; pending: valid but saves less; empty: nothing valid to do. */
  status: RehearsalStatus;
  edits: ResolvedEdit[];
  dropped: DroppedEdit[];
  projection: Projection;
  /** The projected view (what commit would produce), for provider normalisation and benefit. */
  view: ViewMessage[];
  tokensBefore: number;
  tokensAfter: number;
  pruneRate: number;
  threshold: number;
  /** First prefix message the projection changes (where a provider prefix cache would break). */
  firstChangedMessage?: number;
  log: string[];
}

export function rehearsePlan(ctx: PolicyContext, plan: GcPlan, threshold = DEFAULT_COMPRESSION_THRESHOLD): Rehearsal {
  const { edits, dropped } = resolveEdits(ctx, plan);
  const projection = buildProjection(ctx, edits);
  const materialized = materializeView(ctx.session.messages, ctx.cut, ctx.index, cloneEditPlan(projection.plan), ctx.protect, ctx.tokenizer);
  for (const r of materialized.rejected) dropped.push({ target: r.target, action: "edit", reason: r.reason });
  const tokensBefore = ctx.prefixTokens;
  const tokensAfter = materialized.tokens;
  const pruneRate = tokensBefore > 0 ? 1 - tokensAfter / tokensBefore : 0;
  const status: RehearsalStatus = edits.length === 0 ? "empty" : pruneRate >= threshold ? "accepted" : "pending";
  const firstChangedMessage = firstChange(ctx, materialized.view);
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const log = [
    `rehearsal: ${edits.length} edits kept, ${dropped.length} dropped; projection ${tokensBefore} → ${tokensAfter} tokens (${pct(pruneRate)} pruned, threshold ${pct(threshold)})`,
    ...dropped.map((d) => `dropped ${d.action} ${d.target}: ${d.reason}`),
    status === "accepted"
      ? "rehearsal accepted the plan"
      : status === "pending"
        ? `plan stays pending: ${pct(pruneRate)} is below the ${pct(threshold)} compression threshold`
        : "nothing to apply: no valid edit survived rehearsal",
  ];
  return {
    status,
    edits,
    dropped,
    projection,
    view: materialized.view,
    tokensBefore,
    tokensAfter,
    pruneRate,
    threshold,
    ...(firstChangedMessage !== undefined ? { firstChangedMessage } : {}),
    log,
  };
}

/** The first original message the view does not reproduce unchanged (undefined: nothing changed). */
function firstChange(ctx: PolicyContext, view: ViewMessage[]): number | undefined {
  let expected = 0;
  for (const message of view) {
    if (typeof message.origin !== "number") return expected;
    if (message.origin !== expected) return expected;
    if (message.parts.some((p) => p.action !== undefined) || message.parts.length !== ctx.session.messages[expected]!.parts.length) return expected;
    expected++;
  }
  return expected < ctx.cut ? expected : undefined;
}
