import assert from "node:assert/strict";
import { buildContextIndex, type ContextIndex } from "../../../../../lib/compaction/context/objects";
import { runPolicy } from "../../../../../lib/compaction/policies/run-policy";
import type { Policy, PolicyParams, PolicyResult } from "../../../../../lib/compaction/policies/types";
import { rawTokenizer } from "../../../../../lib/tokens";
import type { Message, Part, Role, Session, ToolCallPart, ToolResultPart } from "../../../../../lib/trace/model";

/** Hand-built sessions for the pruning-family table tests, counted with chars4 so sizes are easy to reason about. */
export const tokenizer = rawTokenizer("chars4");

export const text = (t: string): Part => ({ type: "text", text: t });
export const reasoning = (t: string): Part => ({ type: "reasoning", text: t });
export const call = (id: string, name: string, args: string): ToolCallPart => ({ type: "tool_call", id, name, arguments: args });
export const result = (callId: string, content: string): ToolResultPart => ({ type: "tool_result", callId, content });

export function session(messages: [Role, Part[]][]): Session {
  return {
    id: "s",
    format: "tracefold_jsonl",
    title: "t",
    models: [],
    compactions: [],
    messages: messages.map(([role, parts], index): Message => ({ index, role, parts, source: { file: "f", line: index + 1 } })),
  };
}

/** Lines of distinct prose (no repetition, no log shape), about `chars` long. */
export function prose(chars: number, seed = "w"): string {
  const words: string[] = [];
  for (let i = 0; words.join(" ").length < chars; i++) words.push(`${seed}${i.toString(36)}${i % 7 === 6 ? ".\n" : ""}`);
  return words.join(" ").slice(0, chars);
}

/** One tool step: an assistant call and its result. */
export function step(id: string, name: string, output: string, args = `{"command":"run ${id}"}`): [Role, Part[]][] {
  return [
    ["assistant", [call(id, name, args)]],
    ["tool", [result(id, output)]],
  ];
}

export interface Analyzed {
  session: Session;
  index: ContextIndex;
}

export function analyze(s: Session): Analyzed {
  return { session: s, index: buildContextIndex(s, tokenizer) };
}

export function run(
  policy: Policy,
  a: Analyzed,
  options: { window: number; cut?: number; params?: PolicyParams; targetTokens?: number },
): Promise<PolicyResult> {
  return runPolicy(policy, {
    session: a.session,
    index: a.index,
    cut: options.cut ?? a.session.messages.length,
    window: options.window,
    tokenizer,
    ...(options.params ? { params: options.params } : {}),
    ...(options.targetTokens !== undefined ? { targetTokens: options.targetTokens } : {}),
  });
}

/** The view's messages by origin index (inserted summary/reminder messages left out). */
export function viewByOrigin(r: PolicyResult): Map<number, PolicyResult["view"][number]> {
  return new Map(r.view.filter((v) => typeof v.origin === "number").map((v) => [v.origin as number, v]));
}

/** A view message's parts as the trace wrote them (view bookkeeping stripped). */
export function plainParts(message: PolicyResult["view"][number]): Part[] {
  return message.parts.map(({ origin: _o, objectId: _id, action: _a, ...part }) => part as Part);
}

/** Every result in the view follows its call and every call keeps a result: what providers require. */
export function assertValidPairs(r: PolicyResult): void {
  const calls = new Set<string>();
  const answered = new Set<string>();
  for (const message of r.view) {
    for (const part of message.parts) {
      if (part.type === "tool_call") calls.add(part.id);
      if (part.type === "tool_result") {
        assert.ok(calls.has(part.callId), `result ${part.callId} without its call`);
        answered.add(part.callId);
      }
    }
  }
  for (const id of calls) assert.ok(answered.has(id), `call ${id} without its result`);
}
