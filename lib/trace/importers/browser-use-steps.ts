import { z } from "zod";
import { asText } from "../json-lines";
import type { Part } from "../model";
import { base64Bytes } from "./claude-code-blocks";

/**
 * One step of a browser-use `AgentHistoryList` (`history[i]`): `model_output` (the agent's
 * structured reply: `current_state{evaluation_previous_goal, memory, next_goal}` in older versions,
 * those fields plus `thinking` at top level in newer ones, and `action[{<action name>: {params}}]`),
 * `result[{is_done, success, extracted_content, error, include_in_memory, …}]` (one per action that
 * ran), `state{url, title, tabs[], interacted_element[], screenshot (base64 PNG) | screenshot_path}`
 * (the browser as the agent saw it before deciding) and `metadata{step_start_time, step_end_time,
 * input_tokens, step_number}`.
 */
const ResultSchema = z.looseObject({
  is_done: z.boolean().nullish(),
  success: z.boolean().nullish(),
  extracted_content: z.string().nullish(),
  long_term_memory: z.string().nullish(),
  error: z.string().nullish(),
});
const StateFields = {
  evaluation_previous_goal: z.string().nullish(),
  memory: z.string().nullish(),
  next_goal: z.string().nullish(),
  thinking: z.string().nullish(),
};
/** One history step; the fields browser-use added over versions are optional and extra ones ignored. */
export const StepSchema = z.looseObject({
  model_output: z
    .looseObject({ ...StateFields, current_state: z.looseObject(StateFields).nullish(), action: z.array(z.record(z.string(), z.unknown())).nullish() })
    .nullish(),
  result: z.array(ResultSchema).nullish(),
  state: z
    .looseObject({
      url: z.string().nullish(),
      title: z.string().nullish(),
      tabs: z.array(z.looseObject({ url: z.string().nullish(), title: z.string().nullish() })).nullish(),
      screenshot: z.string().nullish(),
      screenshot_path: z.string().nullish(),
    })
    .nullish(),
  metadata: z
    .looseObject({
      step_start_time: z.number().nullish(),
      step_end_time: z.number().nullish(),
      input_tokens: z.number().nullish(),
      step_number: z.number().nullish(),
    })
    .nullish(),
});
export type Step = z.infer<typeof StepSchema>;
type Result = z.infer<typeof ResultSchema>;

/**
 * The observation the agent decided on: URL, title and open tabs as text, and the screenshot as an
 * image placeholder carrying only its decoded size. The base64 PNG itself is not kept: as text it
 * would be hundreds of kilobytes of characters no tokenizer reads the way a provider bills an image
 * (token counts, search and the studio would all be about base64), and the studio never shows it.
 */
export function observationParts(state: Step["state"]): Part[] {
  if (!state) return [];
  const lines = [state.url ? `URL: ${state.url}` : undefined, state.title ? `Title: ${state.title}` : undefined];
  const tabs = (state.tabs ?? []).map((t) => `- ${t.title || "(untitled)"} ${t.url ?? ""}`.trimEnd());
  if (tabs.length) lines.push(`Tabs:\n${tabs.join("\n")}`);
  const text = lines.filter(Boolean).join("\n");
  const parts: Part[] = text ? [{ type: "text", text }] : [];
  if (state.screenshot) parts.push({ type: "image", mediaType: "image/png", bytes: base64Bytes(state.screenshot) });
  else if (state.screenshot_path) parts.push({ type: "image", mediaType: "image/png" });
  return parts;
}

/** The agent's reasoning fields, labelled as browser-use prompts for them, as one reasoning text. */
export function reasoningText(output: NonNullable<Step["model_output"]>): string {
  const state = { ...output.current_state, ...stripNullish(output) };
  const fields: [string, string | null | undefined][] = [
    ["Thinking", state.thinking],
    ["Evaluation of previous goal", state.evaluation_previous_goal],
    ["Memory", state.memory],
    ["Next goal", state.next_goal],
  ];
  return fields
    .filter(([, v]) => v)
    .map(([k, v]) => `${k}: ${v}`)
    .join("\n");
}

/** `{click_element_by_index: {index: 28}}` → name and JSON arguments; an empty action is invalid. */
export function actionCall(action: Record<string, unknown>): { name: string; arguments: string } | undefined {
  const name = Object.keys(action)[0];
  return name === undefined ? undefined : { name, arguments: asText(action[name] ?? {}) };
}

/** What the agent is told of an action's outcome: its error, else the extracted content. */
export function resultContent(result: Result): { content: string; isError: boolean } {
  if (result.error) return { content: result.error, isError: true };
  return { content: result.extracted_content ?? result.long_term_memory ?? "", isError: false };
}

function stripNullish<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined)) as Partial<T>;
}
