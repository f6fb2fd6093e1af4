import { buildContextIndex, type ContextIndex } from "../../../../lib/compaction/context/objects";
import type { PlannerInput } from "../../../../lib/compaction/planner/types";
import type { PolicyContext } from "../../../../lib/compaction/policies/types";
import { protectedSet } from "../../../../lib/compaction/projection/protect";
import { extractiveSummarizer } from "../../../../lib/compaction/summarizer/extractive";
import { rawTokenizer } from "../../../../lib/tokens/tokenizer";
import type { Message, Part, Role, Session } from "../../../../lib/trace/model";

/**
 * Hand-built sessions for planner and self-gc tests. A step is a message, or a tool call with its
 * result (`call`), written in the order the agent produced them.
 */
export type Step = [role: Role, text: string] | ["call", tool: string, args: Record<string, unknown> | string, result: string, options?: { isError?: boolean }];

export const tokenizer = rawTokenizer("chars4");

export function buildSession(steps: Step[], id = "hand"): Session {
  const messages: [Role, Part[]][] = [];
  let calls = 0;
  for (const step of steps) {
    if (step[0] !== "call") {
      messages.push([step[0], [{ type: "text", text: step[1] }]]);
      continue;
    }
    const [, tool, args, result, options] = step;
    const callId = `call_${++calls}`;
    messages.push(["assistant", [{ type: "tool_call", id: callId, name: tool, arguments: typeof args === "string" ? args : JSON.stringify(args) }]]);
    messages.push(["tool", [{ type: "tool_result", callId, name: tool, content: result, ...(options?.isError ? { isError: true } : {}) }]]);
  }
  return {
    id,
    format: "tracefold_jsonl",
    title: id,
    models: [],
    compactions: [],
    messages: messages.map(([role, parts], index): Message => ({ index, role, parts, source: { file: "hand", line: index + 1 } })),
  };
}

export interface Fixture {
  session: Session;
  index: ContextIndex;
  input: PlannerInput;
  ctx: PolicyContext;
}

/** Session, index, planner input and policy context at `cut` (default: the whole session). */
export function fixture(steps: Step[], cut?: number): Fixture {
  return fixtureFromSession(buildSession(steps), cut);
}

/** The same for a session built or edited by hand. */
export function fixtureFromSession(session: Session, cut?: number): Fixture {
  const index = buildContextIndex(session, tokenizer);
  const at = cut ?? session.messages.length;
  const protect = protectedSet(session.messages, index, at);
  const input: PlannerInput = { session, index, cut: at, protect, tokenizer };
  const ctx: PolicyContext = {
    ...input,
    window: Math.ceil(index.prefixTokens[at]! / 0.9),
    prefixTokens: index.prefixTokens[at]!,
    summaryCap: 2_000,
    summarizer: extractiveSummarizer,
    pointers: "semantic",
  };
  return { session, index, input, ctx };
}

const WORDS = ["alpha", "ledger", "vendor", "quarter", "render", "socket", "branch", "margin", "header", "invoice", "cursor", "tensor", "schema", "rollout"];

/** A body of `lines` varied lines (a file or page: not log-like, not a table). */
export function body(label: string, lines = 80): string {
  const word = (i: number, j: number) => WORDS[(i * 7 + j * 5 + label.length) % WORDS.length]!;
  return Array.from({ length: lines }, (_, i) => `${label} ${Array.from({ length: 3 + (i % 5) }, (_, j) => word(i, j)).join(" ")} ${word(j0(i), i)}.`).join(
    "\n",
  );
}

function j0(i: number): number {
  return (i * i) % 11;
}

/** A repetitive build/test log. */
export function log(lines = 120): string {
  return Array.from({ length: lines }, (_, i) => `[${i}/${lines}] Compiling module_${i}.ex ... ok`).join("\n");
}
