import type { ViewMessage } from "./types";

/**
 * Provider-message normalisation (seed 000: "normalizes provider messages" before a projected
 * view is sent). Both builders share one pairing pass over the view that guarantees:
 * - every tool result directly follows the assistant message holding its call, one result per
 *   call, in call order (results are paired by position, so reused call ids stay correct, and
 *   duplicate ids are made unique with a `_<n>` suffix);
 * - a call without a result is removed from its message; a result without a call becomes text;
 * - text that arrived while calls were still open is moved after their results;
 * - no message is empty; reasoning is dropped (providers reject foreign reasoning blocks); images
 *   and other binary parts become text placeholders (their payloads are not kept).
 * Anthropic additionally gets a top-level system string, strict user/assistant alternation with
 * tool_result blocks first in user messages, and object-valued tool inputs.
 */
type Step =
  | { kind: "system"; text: string }
  | { kind: "user"; texts: string[] }
  | { kind: "assistant"; texts: string[]; calls: { id: string; name: string; args: string }[] }
  | { kind: "results"; results: { id: string; content: string; isError: boolean }[] };

export type Fix = (note: string) => void;

function normalise(view: ViewMessage[], fix: Fix): Step[] {
  const steps: Step[] = [];
  const used = new Map<string, number>();
  const unique = (id: string) => {
    const n = (used.get(id) ?? 0) + 1;
    used.set(id, n);
    return n === 1 ? id : `${id}_${n}`;
  };
  let open:
    | { texts: string[]; calls: { id: string; raw: string; name: string; args: string }[]; results: Map<number, { content: string; isError: boolean }> }
    | undefined;
  let deferred: string[] = [];
  const pushUser = (texts: string[]) => {
    const last = steps.at(-1);
    if (last?.kind === "user") last.texts.push(...texts);
    else steps.push({ kind: "user", texts });
  };
  const close = () => {
    if (!open) return;
    const answered = open.calls.filter((_, i) => open!.results.has(i));
    for (const [i, c] of open.calls.entries()) if (!open.results.has(i)) fix(`call ${c.raw} (${c.name}) had no result and was removed`);
    if (open.texts.length || answered.length)
      steps.push({ kind: "assistant", texts: open.texts, calls: answered.map(({ id, name, args }) => ({ id, name, args })) });
    const results = open.calls.flatMap((c, i) => (open!.results.has(i) ? [{ id: c.id, ...open!.results.get(i)! }] : []));
    if (results.length) steps.push({ kind: "results", results });
    open = undefined;
    if (deferred.length) pushUser(deferred);
    deferred = [];
  };
  const pendingIndex = (callId: string) => open?.calls.findIndex((c, i) => c.raw === callId && !open!.results.has(i)) ?? -1;
  for (const message of view) {
    if (message.role === "assistant") {
      close();
      open = { texts: [], calls: [], results: new Map() };
      for (const part of message.parts) {
        if (part.type === "tool_call") open.calls.push({ id: unique(part.id), raw: part.id, name: part.name, args: part.arguments });
        else if (part.type !== "reasoning" && part.type !== "tool_result") pushText(open.texts, textOf(part));
      }
      if (open.calls.length === 0) close();
      continue;
    }
    const texts: string[] = [];
    for (const part of message.parts) {
      if (part.type === "tool_result") {
        const i = pendingIndex(part.callId);
        if (i >= 0) open!.results.set(i, { content: part.content, isError: part.isError === true });
        else {
          fix(`result for ${part.callId} has no call before it and became text`);
          pushText(texts, `[tool result${part.name ? ` of ${part.name}` : ""} for ${part.callId}]\n${part.content}`);
        }
      } else if (part.type !== "reasoning" && part.type !== "tool_call") pushText(texts, textOf(part));
    }
    const waiting = open !== undefined && open.results.size < open.calls.length;
    if (!waiting) close();
    if (!texts.length) continue;
    if (message.role === "system" && steps.every((s) => s.kind === "system") && !open) steps.push({ kind: "system", text: texts.join("\n\n") });
    else if (waiting) deferred.push(...texts.map((t) => (message.role === "system" ? `[system] ${t}` : t)));
    else pushUser(texts.map((t) => (message.role === "system" ? `[system] ${t}` : t)));
  }
  close();
  return steps;
}

function textOf(part: ViewMessage["parts"][number]): string {
  if (part.type === "text") return part.text;
  if (part.type === "image") return "[image omitted]";
  if (part.type === "other") return part.text ?? `[${part.kind} omitted]`;
  return "";
}

function pushText(texts: string[], text: string): void {
  if (text.trim()) texts.push(text);
}

export interface OpenAiToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}
export type OpenAiMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | { role: "assistant"; content: string | null; tool_calls?: OpenAiToolCall[] }
  | { role: "tool"; tool_call_id: string; content: string };

/** Chat Completions messages for a view. */
export function toOpenAiMessages(view: ViewMessage[], fix: Fix = () => {}): OpenAiMessage[] {
  const out: OpenAiMessage[] = [];
  for (const step of normalise(view, fix)) {
    if (step.kind === "system") out.push({ role: "system", content: step.text });
    else if (step.kind === "user") out.push({ role: "user", content: step.texts.join("\n\n") });
    else if (step.kind === "assistant") {
      const calls = step.calls.map((c) => ({ id: c.id, type: "function" as const, function: { name: c.name, arguments: c.args } }));
      out.push({ role: "assistant", content: step.texts.length ? step.texts.join("\n\n") : null, ...(calls.length ? { tool_calls: calls } : {}) });
    } else for (const r of step.results) out.push({ role: "tool", tool_call_id: r.id, content: r.content });
  }
  return out;
}

export type AnthropicBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> }
  | { type: "tool_result"; tool_use_id: string; content?: string; is_error?: boolean };
export interface AnthropicMessage {
  role: "user" | "assistant";
  content: AnthropicBlock[];
}
export interface AnthropicPayload {
  system?: string;
  messages: AnthropicMessage[];
}

/** Messages API payload (system + alternating messages) for a view. */
export function toAnthropicMessages(view: ViewMessage[], fix: Fix = () => {}): AnthropicPayload {
  const system: string[] = [];
  const messages: AnthropicMessage[] = [];
  const push = (role: AnthropicMessage["role"], blocks: AnthropicBlock[]) => {
    const last = messages.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else messages.push({ role, content: blocks });
  };
  for (const step of normalise(view, fix)) {
    if (step.kind === "system") system.push(step.text);
    else if (step.kind === "user")
      push(
        "user",
        step.texts.map((text) => ({ type: "text", text })),
      );
    else if (step.kind === "assistant") {
      const uses = step.calls.map((c): AnthropicBlock => ({ type: "tool_use", id: anthropicId(c.id), name: c.name, input: toolInput(c.args) }));
      push("assistant", [...step.texts.map((text): AnthropicBlock => ({ type: "text", text })), ...uses]);
    } else {
      push(
        "user",
        step.results.map((r): AnthropicBlock => ({
          type: "tool_result",
          tool_use_id: anthropicId(r.id),
          ...(r.content ? { content: r.content } : {}),
          ...(r.isError ? { is_error: true } : {}),
        })),
      );
    }
  }
  if (messages[0]?.role === "assistant") {
    fix("the view starts with an assistant message; a user placeholder was inserted");
    messages.unshift({ role: "user", content: [{ type: "text", text: "(conversation continues)" }] });
  }
  return { ...(system.length ? { system: system.join("\n\n") } : {}), messages };
}

function anthropicId(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, "_");
}

function toolInput(args: string): Record<string, unknown> {
  if (!args.trim()) return {};
  try {
    const value: unknown = JSON.parse(args);
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // not JSON: fall through and wrap the raw text
  }
  return { input: args };
}
