import type { ContextIndex } from "../context/objects";
import type { LlmClient } from "../../llm/types";
import type { PointerStyle } from "../projection/pointers";
import type { ProtectedSet } from "../projection/protect";
import type { EditPlan, PolicyAction, RejectedAction, Sidecar, ViewMessage } from "../projection/types";
import type { Summarizer } from "../summarizer/types";
import type { Tokenizer } from "../../tokens/tokenizer";
import type { Session } from "../../trace/model";

/** Where a policy comes from: a seed document, a real harness, or Tracefold itself. */
export type PolicyFamily = "baseline" | "seed-000" | "seed-001" | "seed-002" | "seed-003" | "harness" | "self-gc";

/** Scalar parameter values (policies are configured from the CLI, forms and stored runs). */
export type ParamValue = number | string | boolean;
export type PolicyParams = Record<string, ParamValue>;

/**
 * Everything a policy sees at a cut. The prefix is `session.messages[0..cut)`; the index covers the
 * whole session so prefix sums are shared across cuts (replay stays linear).
 */
export interface PolicyContext {
  session: Session;
  index: ContextIndex;
  cut: number;
  /** The model's context window in tokens. */
  window: number;
  tokenizer: Tokenizer;
  /** Messages the policy must leave unchanged (the latest turn). */
  protect: ProtectedSet;
  /** Tokens of the prefix (`index.prefixTokens[cut]`). */
  prefixTokens: number;
  /** Summary cap in tokens (default 2,000): no policy may keep everything by pasting it into a summary. */
  summaryCap: number;
  summarizer: Summarizer;
  /** Model client for policies that call a model (self-gc with planner=llm); absent offline. */
  llm?: LlmClient;
  /** The harness's pointer style: every fold's pointer is written by the harness in this style. */
  pointers: PointerStyle;
  /**
   * A target view size in tokens (issue 16, matched budgets): when set, the policy compacts until
   * its estimated view is at most this, in its own order of what to remove first, instead of its
   * own target — or as close as it can get. Absent: the policy's own settings decide.
   */
  targetTokens?: number;
}

/** What a policy decides: edits plus the reasons behind each one. Materialisation is shared. */
export interface PolicyDecision {
  plan: EditPlan;
  actions: PolicyAction[];
  /** Actions the policy itself refused (the planner proposed them; rehearsal dropped them). */
  rejected?: RejectedAction[];
  sidecars?: Sidecar[];
  /** Seed 001's tail-start pointer: first original message kept as-is after the summary. */
  tailStart?: number;
  /** Free-form notes for the decision log (trigger readings, budgets, planner output…). */
  log: string[];
  /** Extra structured output shown in the studio (the planner's XML, commit numbers…). */
  details?: Record<string, unknown>;
}

export interface PolicyParamSpec {
  name: string;
  default: ParamValue;
  description: string;
}

/**
 * A compaction policy. `decide` is a pure function of the context and parameters; `triggers`
 * says at which prefix lengths the policy would fire on its own (for `--cut`-less runs and replay).
 */
export interface Policy {
  /** Public contract: stable, kebab-case. */
  id: string;
  family: PolicyFamily;
  /** Where the behaviour and constants come from (seed section, harness source file). */
  source: string;
  description: string;
  params: PolicyParamSpec[];
  decide(context: PolicyContext, params: PolicyParams): PolicyDecision | Promise<PolicyDecision>;
  /**
   * Does a run with these (resolved) parameters call the model in `PolicyContext.llm`? Absent means
   * never. The studio runs such a compaction as a durable job instead of inside the request (see
   * needs-llm.ts), so it must be true for every parameter set whose `decide` awaits a model call.
   */
  callsModel?(params: PolicyParams): boolean;
  /** Does the policy's own trigger fire with this prefix? Defaults to the shared budget trigger. */
  fires?(context: Omit<PolicyContext, "protect" | "summarizer" | "pointers" | "targetTokens">, params: PolicyParams): boolean;
}

/** The result of running a policy at a cut: the decision materialised into a view. */
export interface PolicyResult {
  policy: string;
  params: PolicyParams;
  sessionId: string;
  cut: number;
  window: number;
  tokensBefore: number;
  tokensAfter: number;
  /** 1 − after / before (seed 000's pruning rate for this cut). */
  pruneRate: number;
  /** The harness's target view size, when the run set one (matched budgets, sweeps). */
  targetTokens?: number;
  actions: PolicyAction[];
  rejected: RejectedAction[];
  summary?: string;
  tailStart?: number;
  view: ViewMessage[];
  sidecars: Sidecar[];
  log: string[];
  details?: Record<string, unknown>;
}
