import { IssueList, type Importer } from "../importer";
import { hasJsonKey, isRecord, jsonKind, readLocatedJsonDocument, type LocatedJson } from "../json-lines";
import type { ParseResult, Part } from "../model";
import { SessionBuilder } from "../session-builder";
import type { TraceSource } from "../source";
import { reportZodIssues } from "../zod-issues";
import { StepSchema, actionCall, observationParts, reasoningText, resultContent, type Step } from "./browser-use-steps";

/**
 * browser-use agent histories (`AgentHistoryList.save_to_file`, usually `AgentHistory.json`):
 * `{history: [step, …]}`, one step per model call (see browser-use-steps.ts). One file is one
 * session named by the file; the task prompt and the model are not recorded.
 *
 * Each step becomes, in the order the agent lived it: a user message with the browser state it was
 * shown (URL, title, tabs and the screenshot as a size-only image placeholder), an assistant message
 * with its reasoning fields and one tool call per action (ids `call_<n>`, the format has none), and a
 * tool message with one result per action that ran, paired by position (browser-use stops a step at
 * the first failing action, so later actions of that step have no result). `metadata.input_tokens`
 * is the step's prompt size; step times become timestamps.
 */
export const browserUseImporter: Importer = {
  format: "browser_use_history",
  label: "browser-use agent history",
  detect: detectBrowserUse,
  parse: parseBrowserUse,
};

const SHAPE = "{history: [{model_output, result, state, metadata}, …]}";

function detectBrowserUse(_name: string, head: string): number {
  if (!/^\uFEFF?\s*\{/.test(head) || !hasJsonKey(head, "history") || !hasJsonKey(head, "model_output")) return 0;
  let score = 0.7;
  if (hasJsonKey(head, "current_state") || hasJsonKey(head, "next_goal")) score += 0.15;
  if (hasJsonKey(head, "interacted_element") || hasJsonKey(head, "extracted_content")) score += 0.1;
  return score;
}

async function parseBrowserUse(source: TraceSource): Promise<ParseResult> {
  const issues = new IssueList(source.name);
  const doc = await readLocatedJsonDocument(source, issues, 3);
  if (!doc) return { format: "browser_use_history", sessions: [], issues: issues.items };
  const history = isRecord(doc.value) ? doc.value.history : undefined;
  if (!Array.isArray(history)) {
    const found = isRecord(doc.value) ? `history is ${jsonKind(history)}` : `found ${jsonKind(doc.value)}`;
    issues.error(isRecord(doc.value) ? doc.lineOf("history") : 1, `expected a browser-use history: ${found}`, "history", SHAPE);
    return { format: "browser_use_history", sessions: [], issues: issues.items };
  }
  const builder = new SessionBuilder(stem(source.name), "browser_use_history");
  let title: string | undefined;
  let last: Step | undefined;
  for (const [i, raw] of history.entries()) {
    const field = `history[${i}]`;
    const parsed = StepSchema.safeParse(raw);
    if (!parsed.success) {
      reportZodIssues(issues, parsed.error, { field, lineOf: doc.lineOf }, "step skipped");
      continue;
    }
    addStep(builder, parsed.data, { file: source.name, field, doc, issues });
    title ??= parsed.data.model_output ? firstLine(parsed.data.model_output.next_goal ?? parsed.data.model_output.current_state?.next_goal) : undefined;
    last = parsed.data;
  }
  if (builder.messageCount === 0) {
    issues.warn(1, "no steps: the history is empty");
    return { format: "browser_use_history", sessions: [], issues: issues.items };
  }
  const final = last?.result?.at(-1);
  const meta = { steps: history.length, ...(final?.is_done ? { done: true } : {}), ...(typeof final?.success === "boolean" ? { success: final.success } : {}) };
  return { format: "browser_use_history", sessions: [builder.build({ ...(title ? { title } : {}), meta })], issues: issues.items };
}

interface StepContext {
  file: string;
  field: string;
  doc: LocatedJson;
  issues: IssueList;
}

function addStep(builder: SessionBuilder, step: Step, { file, field, doc, issues }: StepContext): void {
  const started = isoTime(step.metadata?.step_start_time);
  const ended = isoTime(step.metadata?.step_end_time) ?? started;
  const observation = observationParts(step.state);
  if (observation.length)
    builder.add({ role: "user", parts: observation, source: { file, line: doc.lineOf(`${field}.state`) }, ...(started ? { timestamp: started } : {}) });
  const calls: Part[] = [];
  const output = step.model_output;
  if (output) {
    const reasoning = reasoningText(output);
    (output.action ?? []).forEach((action, k) => {
      const call = actionCall(action);
      if (call) calls.push({ type: "tool_call", id: builder.nextSyntheticCallId(), ...call });
      else
        issues.error(
          doc.lineOf(`${field}.model_output.action`),
          "action without a name skipped",
          `${field}.model_output.action[${k}]`,
          "{<action name>: {params}}",
        );
    });
    const inputTokens = step.metadata?.input_tokens;
    builder.add({
      role: "assistant",
      parts: [...(reasoning ? [{ type: "reasoning" as const, text: reasoning }] : []), ...calls],
      source: { file, line: doc.lineOf(`${field}.model_output`) },
      ...(started ? { timestamp: started } : {}),
      ...(typeof inputTokens === "number" ? { usage: { inputTokens } } : {}),
    });
  }
  const results: Part[] = (step.result ?? []).map((result, k) => {
    const call = calls[k];
    const { content, isError } = resultContent(result);
    return { type: "tool_result", callId: call?.type === "tool_call" ? call.id : builder.nextSyntheticCallId(), content, ...(isError ? { isError } : {}) };
  });
  if (results.length)
    builder.add({ role: "tool", parts: results, source: { file, line: doc.lineOf(`${field}.result`) }, ...(ended ? { timestamp: ended } : {}) });
}

/** browser-use step times are Unix seconds (fractional). */
function isoTime(seconds: number | null | undefined): string | undefined {
  if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds <= 0 || seconds > 1e11) return undefined;
  return new Date(Math.round(seconds * 1000)).toISOString();
}

function firstLine(text: string | null | undefined): string | undefined {
  const line = text?.trim().split("\n")[0];
  if (!line) return undefined;
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

function stem(file: string): string {
  return (file.replace(/\\/g, "/").split("/").pop() ?? file).replace(/\.json$/i, "") || "history";
}
