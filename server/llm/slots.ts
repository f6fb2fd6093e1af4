import type { LlmPurpose } from "../../lib/llm/types";

/**
 * The endpoints an admin or the environment can set: the default one, and one per purpose that
 * overrides it (a judge on another model than the planner it grades avoids self-preference).
 * Unset purposes use the default. `rubric` calls ride with the summarizer; a connection test
 * names its slot itself.
 */
export const LLM_SLOTS = ["default", "planner", "summarizer", "judge", "ab-judge"] as const;
export type LlmSlot = (typeof LLM_SLOTS)[number];
export type PurposeSlot = Exclude<LlmSlot, "default">;
export const PURPOSE_SLOTS: readonly PurposeSlot[] = ["planner", "summarizer", "judge", "ab-judge"];

export const SLOT_LABELS: Record<LlmSlot, string> = {
  default: "LLM endpoint",
  planner: "Planner model",
  summarizer: "Summarizer model",
  judge: "Judge model",
  "ab-judge": "A/B judge model",
};

/** The slot that serves a request's purpose. */
export function slotOf(purpose: LlmPurpose): LlmSlot {
  if (purpose === "rubric") return "summarizer";
  if (purpose === "connection-test") return "default";
  return purpose;
}

/** `TRACEFOLD_LLM_` for the default slot, `TRACEFOLD_LLM_AB_JUDGE_` for ab-judge, etc. */
export function envPrefix(slot: LlmSlot): string {
  return slot === "default" ? "TRACEFOLD_LLM_" : `TRACEFOLD_LLM_${slot.toUpperCase().replace("-", "_")}_`;
}
