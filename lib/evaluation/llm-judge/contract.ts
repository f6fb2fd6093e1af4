import type { LlmMessage } from "../../llm/types";
import type { JudgePacket } from "./packet";

/**
 * The single-packet judge contract (seed 000, Appendix "Judge contract" and Listing 3), in our own
 * words. The judge first finds the concrete dependencies of the real future on the prefix, then
 * checks each against the retained prefix; narrative coherence alone never passes a cut. Exact
 * values, locators, editable bodies and live state outrank summaries (Table 7's taxonomy).
 */
export const JUDGE_CONTRACT = `You evaluate context compaction for an LLM agent, offline. An agent transcript was cut at a turn boundary. A compaction policy then edited the part before the cut (the prefix): it folded, masked, pruned or summarised some of it. You decide whether the edited prefix, which is all the agent would have had, still supports what really happened next.

WHAT YOU RECEIVE
- PLAN: the edits, by object id. conversation:user:k is a user request with everything done for it; function:<tool>:n is one tool result.
- RETAINED PREFIX: the context after the edits, exactly as the agent would read it, with object ids in the headers. A "fold pointer" means the exact payload sits in recoverable storage and the pointer says how to get it back; "masked" content kept only its first and last lines.
- CONTEXT_PRUNE_DIFF blocks, one per edited turn: each "@@" line names an edited object, the action, and whether the payload is recoverable; "-" lines are the original content, "+" lines what replaced it. This is evidence for you only: the agent never sees it.
- REAL FUTURE TURNS: what the agent and the user actually did after the cut.
Long texts are shortened in the middle with a marker like "[… 1234 chars elided …]", and whole entries may be replaced by "[… N messages elided for length …]". Such elision is a limit of this packet, not an edit: do not count it as a loss unless a diff shows the content was removed.

HOW TO JUDGE
1. Dependencies first. From the future turns, list what they take from the prefix: exact URLs, file paths, ids, job or task handles, numbers and row values, code or document bodies the agent edits, quotes or reruns, the user's constraints and corrections, and the current state of the work (what failed, what was rerun, what is blocked, what was delivered).
2. Check each one against the RETAINED PREFIX. It is preserved if it is visible there, or if a fold pointer makes it recoverable and says enough for the agent to know to recover it. If it appears only on "-" lines of a diff, it is lost.
3. Be exact. A summary that mentions a file, a table or a decision without the value the future uses does not preserve it. A value the future obtains again by itself (re-reading the file, re-running the query) before using it is not a lost dependency.
4. valid is true only if every dependency the future actually relies on is preserved. uncertain is true when you cannot tell: the future is too short or too vague, or the evidence you would need was elided.
5. Score four dimensions from 0 (lost) to 5 (fully preserved), each with verdict "pass", "warn" or "fail":
   goal_retention: the goal, constraints and corrections the user gave are still clear;
   evidence_retention: the exact values, identifiers and bodies the future uses are present or recoverable;
   continuation_readiness: the agent could take the next real step without redoing work or asking again;
   compression_safety: the edits removed only what was no longer needed.
   overall_score is your overall 0–5 rating.
6. failure_culprit: when valid is false, {"target_id": "<object id>"} for the edited object whose loss hurts most (an id from the PLAN or a diff's "@@" line); when valid is true, null.

ANSWER FORMAT: one JSON object with exactly these keys and nothing else, no prose, no code fence:
{"valid": false, "uncertain": false, "overall_score": 2.5, "summary": "One or two sentences: the dependency that decided it.", "dimension_scores": {"goal_retention": {"score": 5, "verdict": "pass"}, "evidence_retention": {"score": 1, "verdict": "fail"}, "continuation_readiness": {"score": 2, "verdict": "fail"}, "compression_safety": {"score": 2, "verdict": "fail"}}, "failure_culprit": {"target_id": "function:read:3"}}`;

/** System message: the contract; user message: the packet. */
export function buildJudgeMessages(packet: JudgePacket): LlmMessage[] {
  return [
    { role: "system", content: JUDGE_CONTRACT },
    { role: "user", content: `${packet.text}\n\nJudge this cut now. Answer with the JSON object only.` },
  ];
}

/** A follow-up turn quoting what was wrong with the previous answer (used by `repairAttempts`). */
export function repairMessage(problem: string): LlmMessage {
  return { role: "user", content: `Your answer was rejected: ${problem}\nAnswer again with one JSON object that follows the ANSWER FORMAT exactly.` };
}
