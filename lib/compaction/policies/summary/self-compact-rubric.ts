import type { ContextIndex } from "../../context/objects";
import type { LlmClient } from "../../../llm/types";
import { renderTranscript } from "../../summarizer/llm-summarizer";
import type { Message, ToolResultPart } from "../../../trace/model";
import { isRealUserMessage } from "./timeline";

/** Seed 003's rubric R ∈ {COMPACT, CONTINUE}, run after every turn. */
export type RubricVerdict = "COMPACT" | "CONTINUE";

export interface RubricDecision {
  verdict: RubricVerdict;
  /** Which guideline fired (seed 003: "the model finished a subtask", "the model is stuck"). */
  signal: "subtask-finished" | "stuck" | "none" | "llm";
  reason: string;
}

export interface RubricThresholds {
  /** The same tool call (name and arguments) this many times in a row means stuck. */
  repeats: number;
  /** This many failed tool results in a row means stuck. */
  errors: number;
}

export const DEFAULT_RUBRIC_THRESHOLDS: RubricThresholds = { repeats: 3, errors: 3 };

/** Command-like tools whose success after failures marks a finished subtask (normalised names). */
const COMMAND_TOOLS = new Set(["exec"]);
const FAILURE_TEXT =
  /(Traceback \(most recent call last\)|\bFAILED\b|\bFAIL:|\b[1-9]\d* (failed|errors?)\b|\bAssertionError\b|\b(exit|return) ?code:? ?[1-9]|command not found|\bSyntaxError\b)/i;

interface Result {
  message: number;
  part: ToolResultPart;
  tool: string;
}

/**
 * The embedded deterministic rubric (seed 003's two guidelines, read off the trace):
 * - subtask finished: the prefix ends with a new user request right after an agent step that
 *   produced tool output, or the latest command succeeded right after the same tool failed;
 * - stuck: the same tool call repeated ≥ `repeats` times in a row, or ≥ `errors` failed tool
 *   results in a row.
 * Anything else is CONTINUE. Linear scan back from the cut.
 */
export function deterministicRubric(messages: readonly Message[], index: ContextIndex, cut: number, thresholds = DEFAULT_RUBRIC_THRESHOLDS): RubricDecision {
  const last = messages[cut - 1]!;
  if (isRealUserMessage(last) && cut >= 2) {
    const before = messages[cut - 2]!;
    if (before.role !== "user" || before.parts.every((p) => p.type === "tool_result")) {
      if (previousTurnHadToolOutput(messages, cut - 1)) {
        return {
          verdict: "COMPACT",
          signal: "subtask-finished",
          reason: "a new user request follows an agent step whose tool output closed the previous subtask",
        };
      }
    }
  }
  const calls = lastToolCalls(messages, cut, thresholds.repeats);
  if (calls.length === thresholds.repeats && calls.every((c) => c === calls[0])) {
    return { verdict: "COMPACT", signal: "stuck", reason: `the same tool call was repeated ${thresholds.repeats} times in a row` };
  }
  const results = lastResults(messages, index, cut, Math.max(thresholds.errors, 64));
  const failing = results.slice(0, thresholds.errors);
  if (failing.length === thresholds.errors && failing.every((r) => isFailure(r, messages))) {
    return { verdict: "COMPACT", signal: "stuck", reason: `${thresholds.errors} tool results failed in a row` };
  }
  const latest = results[0];
  if (latest && latest.message === cut - 1 && COMMAND_TOOLS.has(latest.tool) && !isFailure(latest, messages)) {
    const previous = results.slice(1).find((r) => r.tool === latest.tool);
    if (previous && isFailure(previous, messages)) {
      return { verdict: "COMPACT", signal: "subtask-finished", reason: `the latest ${latest.tool} command succeeded after the previous one failed` };
    }
  }
  return { verdict: "CONTINUE", signal: "none", reason: "no finished subtask and no sign of being stuck" };
}

function previousTurnHadToolOutput(messages: readonly Message[], request: number): boolean {
  for (let m = request - 1; m >= 0; m--) {
    if (isRealUserMessage(messages[m]!)) return false;
    if (messages[m]!.parts.some((p) => p.type === "tool_result")) return true;
  }
  return false;
}

/** Signatures of the newest `n` tool calls, newest first. */
function lastToolCalls(messages: readonly Message[], cut: number, n: number): string[] {
  const out: string[] = [];
  for (let m = cut - 1; m >= 0 && out.length < n; m--) {
    const parts = messages[m]!.parts;
    for (let p = parts.length - 1; p >= 0 && out.length < n; p--) {
      const part = parts[p]!;
      if (part.type === "tool_call") out.push(`${part.name}\u0000${part.arguments.replace(/\s+/g, " ").trim()}`);
    }
  }
  return out;
}

/** The newest `n` tool results, newest first, with their normalised tool names. */
function lastResults(messages: readonly Message[], index: ContextIndex, cut: number, n: number): Result[] {
  const out: Result[] = [];
  for (let m = cut - 1; m >= 0 && out.length < n; m--) {
    const parts = messages[m]!.parts;
    for (let p = parts.length - 1; p >= 0 && out.length < n; p--) {
      const part = parts[p]!;
      if (part.type !== "tool_result") continue;
      const id = index.functionAt.get(`${m}:${p}`);
      out.push({ message: m, part, tool: (id && index.byId.get(id)?.tool) || "tool" });
    }
  }
  return out;
}

/** A failed tool result: flagged as an error, a non-zero exit recorded by the importer, or a command whose output reads as a failure. */
function isFailure(result: Result, messages: readonly Message[]): boolean {
  if (result.part.isError) return true;
  const meta = messages[result.message]!.meta ?? {};
  for (const key of ["returncode", "exitCode"]) if (typeof meta[key] === "number" && meta[key] !== 0) return true;
  return COMMAND_TOOLS.has(result.tool) && FAILURE_TEXT.test(result.part.content.slice(-4_000));
}

const RUBRIC_PROMPT = [
  "You watch an agent's working context and decide whether it should compact it now (replace the history with a summary and keep only the latest turn).",
  "Answer COMPACT when either holds:",
  "1. The agent just finished a subtask: the earlier detail is no longer needed, only its result (a test passed after failures, a search result was verified, the user moved on to a new request).",
  "2. The agent is stuck: it repeats the same action or keeps hitting errors, and a fresh start from a summary could break the loop.",
  "Otherwise answer CONTINUE. Reply with the single word COMPACT or CONTINUE.",
].join("\n");

/**
 * Seed 003's rubric asked of a model (LlmClient, purpose "rubric") over the recent transcript.
 * An answer that names neither verdict falls back to the deterministic rubric.
 */
export async function llmRubric(client: LlmClient, messages: readonly Message[], cut: number, fallback: RubricDecision, recent = 24): Promise<RubricDecision> {
  const transcript = renderTranscript(messages.slice(Math.max(0, cut - recent), cut), { maxPartChars: 800, maxChars: 24_000 });
  const response = await client.complete({
    purpose: "rubric",
    maxTokens: 8,
    temperature: 0,
    messages: [
      { role: "system", content: RUBRIC_PROMPT },
      { role: "user", content: `<recent_context>\n${transcript}\n</recent_context>\nCOMPACT or CONTINUE?` },
    ],
  });
  const verdict = /\b(COMPACT|CONTINUE)\b/i.exec(response.text)?.[1]?.toUpperCase();
  if (verdict === "COMPACT" || verdict === "CONTINUE") return { verdict, signal: "llm", reason: `rubric model ${response.model} answered ${verdict}` };
  return { ...fallback, reason: `rubric model answered ${JSON.stringify(response.text.slice(0, 40))}; deterministic rubric used: ${fallback.reason}` };
}
