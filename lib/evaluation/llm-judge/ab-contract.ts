import type { LlmMessage } from "../../llm/types";
import type { AbPacket } from "./ab-packet";

/**
 * The A/B judge contract (seed 000, "A/B judge contract" and Listing 4), in our own words: same
 * cut, same real future, two candidate edits; find the concrete future dependencies, then prefer
 * the candidate whose retained prefix (and recoverable folds) preserves more of them. Pruning more
 * is not a merit in itself, and neither is a longer context: only preserved dependencies count.
 */
export const AB_JUDGE_CONTRACT = `You compare two context-compaction candidates for the same LLM-agent transcript, offline. The transcript was cut at a turn boundary; candidates A and B are two different edits of the same prefix. You see the real future turns once, then for each candidate its PLAN (edits by object id), its RETAINED PREFIX (all the agent would have had) and its CONTEXT_PRUNE_DIFF blocks ("-" lines: original content the edit removed or replaced; "+" lines: what the agent sees instead; the diffs are evidence for you only). Text marked "[… N chars elided …]" or "[… N … elided for length …]" was shortened for this packet, not by the candidate.

HOW TO DECIDE
1. List the concrete dependencies of the future turns on the prefix: exact URLs, paths, ids and handles, numbers and row values, bodies the agent edits or quotes, the user's constraints and corrections, and the current state of the work.
2. For each candidate, check which of them its retained prefix keeps visible or recoverable through a fold pointer. Content present only on "-" lines is lost for that candidate.
3. Prefer the candidate that preserves more of what the future actually uses, weighting exact values and live state above narrative. Position (A or B), length and how much was pruned are not reasons by themselves.
4. Answer "tie" when both preserve the same dependencies (including when both lose the same ones).

ANSWER FORMAT: one JSON object with exactly these keys, no prose, no code fence:
{"verdict": "A_better", "summary": "One sentence.", "rationale": "Which dependencies decided it and where each candidate kept or lost them.", "stronger_aspects": ["what the preferred candidate does better"], "risks": ["dependencies still at risk in either candidate"], "confidence": 0.8}
verdict is "A_better", "B_better" or "tie"; confidence is a probability between 0 and 1.`;

export function buildAbMessages(packet: AbPacket): LlmMessage[] {
  return [
    { role: "system", content: AB_JUDGE_CONTRACT },
    { role: "user", content: `${packet.text}\n\nCompare the candidates now. Answer with the JSON object only.` },
  ];
}
