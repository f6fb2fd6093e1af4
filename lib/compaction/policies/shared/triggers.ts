import type { PolicyParams } from "../types";

/**
 * Seed 001's trigger kinds. Budget triggers measure tokens against the window; structural
 * triggers fire on events (a tool produced output, a turn ended); temporal triggers on elapsed
 * time. They compose with `allOf` / `anyOf` (an inline auto-compact is budget AND structural).
 */
export interface TriggerInput {
  prefixTokens: number;
  window: number;
  /** Role of the last message of the prefix and whether the model needs to continue. */
  lastRole: string;
  needsFollowUp: boolean;
  /** Milliseconds since the previous compaction or session start, when timestamps exist. */
  elapsedMs?: number;
  /** Number of messages / turns since the previous compaction. */
  messagesSince: number;
  turnsSince: number;
}

export type Trigger = (input: TriggerInput) => boolean;

export const budget =
  (ratio: number): Trigger =>
  (i) =>
    i.prefixTokens >= ratio * i.window;
export const headroom =
  (tokens: number): Trigger =>
  (i) =>
    i.window - i.prefixTokens <= tokens;
export const afterToolOutput: Trigger = (i) => i.lastRole === "tool";
export const needsFollowUp: Trigger = (i) => i.needsFollowUp;
export const everyTurns =
  (n: number): Trigger =>
  (i) =>
    i.turnsSince >= n;
export const everyMs =
  (ms: number): Trigger =>
  (i) =>
    i.elapsedMs !== undefined && i.elapsedMs >= ms;
export const allOf =
  (...triggers: Trigger[]): Trigger =>
  (i) =>
    triggers.every((t) => t(i));
export const anyOf =
  (...triggers: Trigger[]): Trigger =>
  (i) =>
    triggers.some((t) => t(i));

/** The shared budget trigger used when a policy does not define its own. */
export function defaultBudgetFires(ctx: { prefixTokens: number; window: number }, params: PolicyParams): boolean {
  const ratio = typeof params.triggerRatio === "number" ? params.triggerRatio : 0.9;
  return ctx.prefixTokens >= ratio * ctx.window;
}
