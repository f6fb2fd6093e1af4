import type { ContextObject } from "../../context/objects";
import { DEFAULT_POINTER_STYLE, foldPointer } from "../../projection/pointers";
import type { PlannerInput } from "../types";
import type { VerdictOptions } from "./verdicts";

/**
 * What counts as "large" (seed 000, planner contract rule 3: fold is for large bodies) and which
 * folds are worth their pointer. A fixed size suits long sessions; in a short prefix a few hundred
 * tokens are a large share of it (a 250-token record is 3.5% of a 7K-token tau-bench episode),
 * so there a body is also large from `foldMinShare` of the prefix — but never below twice its own
 * pointer's cost (a fold must remove at least half of what it folds), and a fold is worth taking
 * from half that size saved (1% of the prefix) when that is below `minFoldSavings`. From a prefix
 * of `foldMinTokens / foldMinShare` tokens on (15K by default) the fixed sizes decide alone.
 */
export interface SizingOptions {
  /** Fold bodies of at least this many tokens (default 300). */
  foldMinTokens?: number;
  /** In a short prefix, also bodies of at least this share of it (default 0.02). */
  foldMinShare?: number;
  /** Mask logs of at least this many tokens (default 200). */
  maskMinTokens?: number;
  /** Folds saving fewer tokens are dropped by the sanity check (default 120). */
  minFoldSavings?: number;
}

export interface Sizing {
  verdictOptions: VerdictOptions;
  minFoldSavings: number;
  /** Estimated tokens an object's fold costs in view (the harness's pointer and its reminder). */
  foldCost: (object: ContextObject) => number;
}

/** Tokens a fold costs besides its pointer: its share of the reminder on the turn. */
export const FOLD_OVERHEAD = 25;

/** A stand-in digest: the pointer's length does not depend on the payload's actual sha256. */
const SAMPLE_SIDECAR = { sha256: "0".repeat(64), bytes: 10_000 };

export function sizeRules(input: PlannerInput, options: SizingOptions = {}): Sizing {
  const foldCost = (object: ContextObject) =>
    FOLD_OVERHEAD + input.tokenizer.count(foldPointer(input.session, input.index, object, SAMPLE_SIDECAR, input.pointers ?? DEFAULT_POINTER_STYLE));
  const foldMinTokens = options.foldMinTokens ?? 300;
  const shareLarge = (options.foldMinShare ?? 0.02) * input.index.prefixTokens[input.cut]!;
  const short = shareLarge < foldMinTokens;
  return {
    verdictOptions: {
      foldMinTokens,
      maskMinTokens: options.maskMinTokens ?? 200,
      foldPays: (f) => f.object.tokens >= 2 * foldCost(f.object),
      ...(short ? { largeFrom: (f) => Math.min(foldMinTokens, Math.max(shareLarge, 2 * foldCost(f.object))) } : {}),
    },
    minFoldSavings: Math.min(options.minFoldSavings ?? 120, short ? shareLarge / 2 : Infinity),
    foldCost,
  };
}
