import { isUserRequest } from "../../context/objects";
import { headroom, type TriggerInput } from "../shared/triggers";
import type { PolicyContext, PolicyParamSpec, PolicyParams } from "../types";
import { numParam } from "../params";

/** What a policy's `fires` receives (no protected set, no summarizer). */
export type FiresContext = Omit<PolicyContext, "protect" | "summarizer" | "pointers" | "targetTokens">;

/**
 * Seed 001's trigger readings at a cut, for composing budget, structural and temporal triggers
 * (lib/compaction/policies/shared/triggers.ts). The replay sits just before the next model call, so:
 * - `lastRole` is "tool" when the prefix ends with tool output (also tool results carried in a user
 *   message), "user" when it ends with a new request;
 * - `needsFollowUp` is true when that output is pending for the model (Codex `needs_follow_up`);
 * - the "since" counters run from the latest native compaction before the cut, or the session start.
 */
export function triggerInputAt(ctx: FiresContext): TriggerInput {
  const { messages } = ctx.session;
  const last = messages[ctx.cut - 1]!;
  const carriesResults = last.parts.length > 0 && last.parts.every((p) => p.type === "tool_result");
  const lastRole = carriesResults ? "tool" : last.role;
  let since = 0;
  for (const c of ctx.session.compactions) if (c.beforeMessage <= ctx.cut && c.beforeMessage > since) since = c.beforeMessage;
  let turnsSince = 0;
  for (let m = since; m < ctx.cut; m++) if (isUserRequest(messages[m]!)) turnsSince++;
  const from = Date.parse(messages[Math.min(since, ctx.cut - 1)]!.timestamp ?? "");
  const to = Date.parse(last.timestamp ?? "");
  return {
    prefixTokens: ctx.prefixTokens,
    window: ctx.window,
    lastRole,
    needsFollowUp: carriesResults,
    ...(Number.isFinite(from) && Number.isFinite(to) ? { elapsedMs: to - from } : {}),
    messagesSince: ctx.cut - since,
    turnsSince,
  };
}

/** Parameters of seed 001's headroom budget trigger, shared by the three seed strategies. */
export const SEED_TRIGGER_PARAMS: readonly PolicyParamSpec[] = [
  { name: "headroomTokens", default: 20_000, description: "Budget trigger (seed 001): fire when at most this much of a window over 200K is left." },
  { name: "headroomShare", default: 0.2, description: "Budget trigger (seed 001): share of the window kept as headroom for windows of 200K or less." },
];

/**
 * Seed 001, Triggers: "a fixed-size headroom buffer (20K of slack for windows over 200K, 20% for
 * smaller ones)".
 */
export function seedHeadroomFires(ctx: FiresContext, params: PolicyParams): boolean {
  const slack = ctx.window > 200_000 ? numParam(params, "headroomTokens") : numParam(params, "headroomShare") * ctx.window;
  return headroom(slack)(triggerInputAt(ctx));
}
