import type { LlmMessage } from "../../llm/types";
import { FEW_SHOT_EXAMPLES } from "./few-shot";
import { renderIndexedPrefix, type RenderOptions } from "./render-prefix";
import type { PlannerInput } from "./types";

/**
 * The planner contract (seed 000, Appendix "Prompt Contracts" and Table 5), in our own words. It
 * is an object-action contract, not a summary prompt: the planner decides exclusions, future
 * dependencies, granularity and action semantics in that order, then sanity-checks its plan, and
 * answers in the Listing 2 schema. The harness still validates everything it says.
 */
export const PLANNER_CONTRACT = `You are the context-governance planner of an agent harness. You do not talk to the user and you do not rewrite the conversation. You read an indexed prefix of an agent's transcript and propose lifecycle actions over its objects; the harness validates your plan, rehearses it and decides whether to commit it.

OBJECTS
- conversation:user:k — a user request and all the execution that followed it. Its id is the "turn_id" in the request's header metadata.
- function:<tool>:n — one tool result. Its id is in the <turn id="…" /> tag right after the result; "tokens" gives its size.
Only these ids exist. Assistant text is never a target. Long outputs are shown elided; their sizes are real.

ACTIONS
- fold: the exact payload moves to recoverable sidecar storage and a short pointer stays in view. Use it for large stable bodies that a later step may need to see again exactly (file contents, fetched pages, generated reports).
- mask: the first and last lines stay as structural hints and the middle is elided. Use it only for repetitive, log-like output (build or test progress, install logs).
- prune: the object disappears with no recovery. Use it only for obsolete, low-signal trace.

DECIDE IN THIS ORDER
1. Exclusions — never target:
   - the latest visible turn (header "latest": true, everything below the protected line);
   - instruction and contract reads: AGENTS.md, CLAUDE.md, README, schema, policy, spec or convention files;
   - live handles: results that introduced an id, job id, queue id, URL, callback link or file path that a later step still uses;
   - editable artifact bodies: the latest content of a file that is edited later;
   - exact evidence a later step may quote, cite, revise or rerun: row values, error text, query fields, original wording;
   - user corrections and constraints ("do not…", "don't…", "never…", "keep…", "instead…"): keep them visible.
2. Future dependencies — for each remaining object, ask what a plausible next step needs from it. Anything that may be needed verbatim is kept, or folded when large; it is never pruned or masked.
3. Granularity — prefer tool-level actions. Fold a whole user turn only when the turn is resolved and nothing inside it is still a dependency; when a turn mixes obsolete trace with a live contract, handle or evidence span, act on its function objects instead.
4. Action semantics — prune failed attempts that a later attempt superseded, older reads of a file that was read again, and searches whose results nobody used; mask repetitive logs, never stack traces, diffs or tables; fold large stable bodies that may need idempotent recovery.
5. Sanity check — re-read the plan. The current blocker, the latest successful result of each retried step, and a route to every folded object must stay visible. Drop any action you are unsure about; an empty plan is a valid answer. Name each object at most once.

ANSWER FORMAT — exactly these two blocks and nothing else:
<above_conversation_summary>
One short sentence: the session type, its likely future dependencies, and how hard you are compressing.
</above_conversation_summary>
<gc_plan>
  <fold kind="function" reason="stable_body: why">read:12</fold>
  <prune kind="function" reason="superseded_failure: why">exec:9 exec:10</prune>
</gc_plan>
Every action element has kind="conversation" or kind="function" and a reason (a snake_case code, optionally followed by ": detail"). Ids may be written short (user:5, read:12) or in full (conversation:user:5, function:read:12); separate several ids with spaces.`;

/** System message (contract + calibrated examples) and user message (the rendered prefix). */
export function buildPlannerMessages(input: PlannerInput, options: RenderOptions = {}): LlmMessage[] {
  const examples = FEW_SHOT_EXAMPLES.map((e, i) => `EXAMPLE ${i + 1} — ${e.lesson}\nPrefix (abridged):\n${e.prefix}\nPlan:\n${e.plan}`).join("\n\n");
  return [
    { role: "system", content: `${PLANNER_CONTRACT}\n\nCALIBRATION EXAMPLES\n\n${examples}` },
    {
      role: "user",
      content: `Indexed prefix (${input.cut} messages, ${input.index.prefixTokens[input.cut]} tokens):\n\n${renderIndexedPrefix(input, options)}\n\n--- end of prefix ---\n${budgetLine(input)}Write the plan now: the two blocks only.`,
    },
  ];
}

/** The harness's target, when it set one: the plan should remove about this share of the prefix. */
function budgetLine(input: PlannerInput): string {
  if (input.targetShare === undefined) return "";
  return `Budget: the harness needs the view at about ${Math.round((1 - input.targetShare) * 100)}% of the prefix — remove about ${Math.round(input.targetShare * 100)}% of its tokens, choosing what is safest to remove first.\n`;
}
