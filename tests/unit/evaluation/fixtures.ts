import { buildContextIndex, type ContextIndex } from "../../../lib/compaction/context/objects";
import { safeCutPoints } from "../../../lib/compaction/policies/cut-points";
import { runPolicy } from "../../../lib/compaction/policies/run-policy";
import { foldObject, maskObject, pruneObject } from "../../../lib/compaction/policies/shared/object-edits";
import type { Policy, PolicyResult } from "../../../lib/compaction/policies/types";
import { emptyPlan, type PolicyAction, type Sidecar } from "../../../lib/compaction/projection/types";
import { rawTokenizer } from "../../../lib/tokens";
import type { Message, NativeCompaction, Part, Role, Session, ToolCallPart, ToolResultPart } from "../../../lib/trace/model";

/** Hand-built sessions for the evaluation tests, counted with chars4 so sizes are easy to reason about. */
export const tokenizer = rawTokenizer("chars4");

export const text = (t: string): Part => ({ type: "text", text: t });
export const call = (id: string, name: string, args: Record<string, unknown>): ToolCallPart => ({
  type: "tool_call",
  id,
  name,
  arguments: JSON.stringify(args),
});
export const result = (callId: string, content: string, name?: string): ToolResultPart => ({ type: "tool_result", callId, content, ...(name ? { name } : {}) });

export type Spec = [Role, Part[]];

export function session(messages: Spec[], options: { id?: string; compactions?: Omit<NativeCompaction, "source">[] } = {}): Session {
  return {
    id: options.id ?? "s",
    format: "tracefold_jsonl",
    title: "t",
    models: ["test-model"],
    compactions: (options.compactions ?? []).map((c) => ({ ...c, source: { file: "f", line: 1 } })),
    messages: messages.map(([role, parts], index): Message => ({ index, role, parts, source: { file: "f", line: index + 1 } })),
  };
}

/** One tool step: the assistant's call and the tool's result. */
export function step(id: string, name: string, args: Record<string, unknown>, output: string): Spec[] {
  return [
    ["assistant", [call(id, name, args)]],
    ["tool", [result(id, output, name)]],
  ];
}

/** Distinct filler prose (no numbers, ids or long shared spans), about `chars` long. */
export function prose(chars: number, seed = "w"): string {
  const words: string[] = [];
  const letters = "abcdefghij";
  for (let i = 0; words.join(" ").length < chars; i++) {
    const tag = [...i.toString(10)].map((d) => letters[Number(d)]).join("");
    words.push(`${seed}${tag}${i % 9 === 8 ? ".\n" : ""}`);
  }
  return words.join(" ").slice(0, chars);
}

export interface Analyzed {
  session: Session;
  index: ContextIndex;
}

export function analyze(s: Session): Analyzed {
  return { session: s, index: buildContextIndex(s, tokenizer) };
}

/** The last safe cut at or before `message` (the moment just before that message is produced). */
export function cutBefore(s: Session, message: number): number {
  const cut = safeCutPoints(s)
    .filter((k) => k <= message)
    .at(-1);
  if (cut === undefined) throw new Error(`no safe cut at or before ${message}`);
  return cut;
}

/**
 * A policy that applies exactly the given object edits: check-view tests need to know which object
 * lost what, independent of any real policy's budget arithmetic.
 */
export function scriptedPolicy(edits: { target: string; action: "prune" | "fold" | "mask" }[]): Policy {
  return {
    id: "scripted",
    family: "baseline",
    source: "test",
    description: "applies the edits it is given",
    params: [],
    decide(ctx) {
      const plan = emptyPlan();
      const actions: PolicyAction[] = [];
      const sidecars: Sidecar[] = [];
      for (const edit of edits) {
        const object = ctx.index.byId.get(edit.target);
        if (!object) throw new Error(`no object ${edit.target}`);
        if (edit.action === "prune") actions.push(pruneObject(ctx, plan, object, "test", "test/prune"));
        else if (edit.action === "mask") actions.push(maskObject(ctx, plan, object, "test", "test/mask"));
        else {
          const folded = foldObject(ctx, plan, object, "test", "test/fold");
          actions.push(folded.action);
          sidecars.push(...folded.sidecars);
        }
      }
      return { plan, actions, sidecars, log: [] };
    },
  };
}

export function runAt(policy: Policy, a: Analyzed, cut: number): Promise<PolicyResult> {
  return runPolicy(policy, { session: a.session, index: a.index, cut, window: Math.max(1, Math.floor(a.index.prefixTokens[cut]! / 0.9)), tokenizer });
}
