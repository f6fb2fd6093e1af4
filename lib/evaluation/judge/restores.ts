import type { Sidecar } from "../../compaction/projection/types";
import type { CheckedDependency, RestoreCost } from "./types";
import { sidecarTexts } from "./view-texts";

/**
 * What the future pays to bring back the restorable dependencies of one view: each sidecar that
 * holds one is restored once (a second value from the same payload is free), and a restore costs
 * the payload's tokens — it re-enters the context — plus one tool call.
 *
 * `RESTORE_CALL_TOKENS` is the call and its result's framing: a tool call naming the digest (about
 * 20 tokens: name, id and a `sha256:` argument) and two messages' framing (3 each, the harness's
 * `MESSAGE_OVERHEAD_TOKENS`). A payload is counted as the text it restores (a whole-turn span's
 * parts, not its JSON wrapper), with the run's tokenizer.
 */
export const RESTORE_CALL_TOKENS = 26;

export function restoreCosts(checked: readonly CheckedDependency[], sidecars: readonly Sidecar[], countTokens: (text: string) => number): RestoreCost[] {
  const bySha = new Map(sidecars.map((s) => [s.sha256, s]));
  const out = new Map<string, RestoreCost>();
  for (const d of checked) {
    if (d.status !== "restorable" || !d.sidecar || out.has(d.sidecar.sha256)) continue;
    const sidecar = bySha.get(d.sidecar.sha256);
    if (!sidecar) continue;
    const tokens = sidecarTokens(sidecar, countTokens);
    out.set(sidecar.sha256, { target: sidecar.target, sha256: sidecar.sha256, tokens, cost: tokens + RESTORE_CALL_TOKENS });
  }
  return [...out.values()];
}

/** Tokens a sidecar's payload brings back when restored: the text it holds, not its JSON wrapper. */
export function sidecarTokens(sidecar: Sidecar, countTokens: (text: string) => number): number {
  return countTokens(sidecarTexts(sidecar).join("\n"));
}
