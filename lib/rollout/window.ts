import { buildContextIndex } from "../compaction/context/objects";
import type { Tokenizer } from "../tokens/tokenizer";
import type { Session } from "../trace/model";
import { callStarts } from "./continue-from-view";

/** The budget trigger the suite simulator uses unless told otherwise (the policies' own default). */
export const DEFAULT_SIM_TRIGGER = 0.9;
/** Share of a session's peak prompt at which the trigger first fires when no window is given. */
export const DEFAULT_FIRE_SHARE = 2 / 3;

/**
 * The window a session is simulated in when none is given: sized so the budget trigger first fires
 * when the prompt (without the policy) reaches `DEFAULT_FIRE_SHARE` of its peak — every session
 * that grows gets a commit and then continues from the compacted context for its last third.
 * A real model window (200K) would never fire on most recorded traces, which are far shorter.
 */
export function defaultSimWindow(session: Session, tokenizer: Tokenizer, trigger = DEFAULT_SIM_TRIGGER): number {
  const index = buildContextIndex(session, tokenizer);
  let peak = 0;
  for (const k of callStarts(session)) peak = Math.max(peak, index.prefixTokens[k] ?? 0);
  return Math.max(1, Math.floor((peak * DEFAULT_FIRE_SHARE) / trigger));
}

/**
 * Reads a trigger level as a share of the window: `0.9` or a percentage `90` / `90%` (values above 1
 * are percentages). Throws RangeError naming what was expected, for the CLI and the studio alike.
 */
export function parseTriggerLevel(text: string): number {
  const match = /^\s*(\d*\.?\d+)\s*(%?)\s*$/.exec(text);
  const n = match ? Number(match[1]) : Number.NaN;
  const share = match && (match[2] === "%" || n > 1) ? n / 100 : n;
  if (!(share > 0 && share <= 1))
    throw new RangeError(`expected the trigger as a share of the window above 0 and at most 1 (0.9) or a percentage (90%), got ${JSON.stringify(text)}`);
  return share;
}
