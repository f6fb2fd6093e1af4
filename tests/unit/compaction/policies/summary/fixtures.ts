import { buildContextIndex } from "../../../../../lib/compaction/context/objects";
import { runPolicy } from "../../../../../lib/compaction/policies/run-policy";
import type { Policy, PolicyParams, PolicyResult } from "../../../../../lib/compaction/policies/types";
import type { Summarizer, SummaryRequest } from "../../../../../lib/compaction/summarizer/types";
import { rawTokenizer } from "../../../../../lib/tokens/tokenizer";
import type { Message, Part, Role, Session } from "../../../../../lib/trace/model";

/**
 * Small hand-built sessions for the summary-policy tables. Tokens are seed 001's chars/4 (`chars4`),
 * so a message of `text(n)` costs n + 3 tokens (3 = per-message framing).
 */
export const tokenizer = rawTokenizer("chars4");

/** A text of exactly n chars4 tokens. */
export function text(n: number, fill = "x"): string {
  return fill.repeat(4 * n);
}

export type Spec =
  ["system" | "user" | "assistant", string] | ["call", string, string, string?] | ["result", string, string, { isError?: boolean; name?: string }?];

/** `["call", id, toolName, args]` is an assistant tool call; `["result", id, content]` its tool message. */
export function session(specs: Spec[], id = "s"): Session {
  const messages = specs.map((spec, index): Message => {
    const [kind] = spec;
    let role: Role;
    let parts: Part[];
    if (kind === "call") {
      role = "assistant";
      parts = [{ type: "tool_call", id: spec[1], name: spec[2], arguments: spec[3] ?? "{}" }];
    } else if (kind === "result") {
      role = "tool";
      parts = [
        {
          type: "tool_result",
          callId: spec[1],
          content: spec[2],
          ...(spec[3]?.isError ? { isError: true } : {}),
          ...(spec[3]?.name ? { name: spec[3].name } : {}),
        },
      ];
    } else {
      role = kind;
      parts = [{ type: "text", text: spec[1] }];
    }
    return { index, role, parts, source: { file: "fixture", line: index + 1 } };
  });
  return { id, format: "tracefold_jsonl", title: id, models: [], compactions: [], messages };
}

/** A summarizer that returns a fixed text and records what it was asked. */
export function recordingSummarizer(reply = "SUMMARY"): Summarizer & { requests: SummaryRequest[] } {
  const requests: SummaryRequest[] = [];
  return {
    id: "recording",
    requests,
    summarize(request) {
      requests.push(request);
      return reply;
    },
  };
}

export interface RunOptions {
  cut?: number;
  window?: number;
  params?: PolicyParams;
  summarizer?: Summarizer;
  summaryCap?: number;
  targetTokens?: number;
}

/** Runs a policy through the shared harness (runPolicy), default cut = whole session, window 1M. */
export function run(policy: Policy, s: Session, options: RunOptions = {}): Promise<PolicyResult> {
  return runPolicy(policy, {
    session: s,
    index: buildContextIndex(s, tokenizer),
    cut: options.cut ?? s.messages.length,
    window: options.window ?? 1_000_000,
    tokenizer,
    ...(options.params ? { params: options.params } : {}),
    summarizer: options.summarizer ?? recordingSummarizer(),
    ...(options.summaryCap ? { summaryCap: options.summaryCap } : {}),
    ...(options.targetTokens !== undefined ? { targetTokens: options.targetTokens } : {}),
  });
}

/** The view as origins: message indexes, "summary" for inserted messages. */
export function origins(result: PolicyResult): (number | string)[] {
  return result.view.map((v) => v.origin);
}

/** `fires` of a policy at a cut, with its default parameters. */
export function fires(policy: Policy, s: Session, window: number, cut = s.messages.length, params: PolicyParams = {}): boolean {
  const index = buildContextIndex(s, tokenizer);
  const resolved: PolicyParams = Object.fromEntries(policy.params.map((p) => [p.name, p.default]));
  return policy.fires!({ session: s, index, cut, window, tokenizer, prefixTokens: index.prefixTokens[cut]!, summaryCap: 2_000 }, { ...resolved, ...params });
}

/** Messages a recorded summarizer request carried, as [role, first 40 chars]. */
export function seen(request: SummaryRequest): string[] {
  return request.messages.map((m) => {
    const p = m.parts[0]!;
    const body = p.type === "text" ? p.text : p.type === "tool_result" ? p.content : p.type === "tool_call" ? p.name : p.type;
    return `${m.role}:${body.slice(0, 40)}`;
  });
}

/** Tokens of the session's first `cut` messages. */
export function prefixTokens(s: Session, cut = s.messages.length): number {
  return buildContextIndex(s, tokenizer).prefixTokens[cut]!;
}
