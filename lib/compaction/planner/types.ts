import type { ContextIndex } from "../context/objects";
import type { PointerStyle } from "../projection/pointers";
import type { ProtectedSet } from "../projection/protect";
import type { Tokenizer } from "../../tokens/tokenizer";
import type { Session } from "../../trace/model";

/**
 * The side-channel planner of seed 000 ("Reflective Planning, Rehearsal, and Commit"): it reads a
 * forked prefix of indexed objects and emits a structured plan as XML (Listing 2). It never edits
 * the conversation itself; the harness parses, rehearses and commits what it proposes, so an
 * embedded rule-based planner and an LLM planner are interchangeable behind this interface.
 */
export interface PlannerInput {
  session: Session;
  index: ContextIndex;
  /** The prefix is `session.messages[0..cut)`. */
  cut: number;
  /** The protected latest turn (mandatory last-turn retention). */
  protect: ProtectedSet;
  tokenizer: Tokenizer;
  /** The harness's pointer style (what a fold will cost in view); default `semantic`. */
  pointers?: PointerStyle;
  /**
   * Share of the prefix the plan should aim to remove, when the harness sets a target view size
   * (matched budgets); absent, the planner's own compression bias decides.
   */
  targetShare?: number;
}

/** What a planner returns: its raw XML, always parsed by the same strict parser. */
export interface PlannerOutput {
  xml: string;
  /** Planner id (`rule-based`, `llm:<client id>`). */
  planner: string;
  /** Model that answered, for LLM planners. */
  model?: string;
  /** Wall time of the planner call, when the caller supplied a clock. */
  latencyMs?: number;
  /** Tokens the planner call consumed (feeds L_GC of the commit benefit). */
  usage?: { inputTokens?: number; outputTokens?: number; cachedInputTokens?: number; costUsd?: number };
  /** Calls made when the first answer did not parse and the model was asked to repair it. */
  attempts?: number;
}

export interface Planner {
  readonly id: string;
  plan(input: PlannerInput): Promise<PlannerOutput>;
}
