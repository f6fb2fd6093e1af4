import type { PolicyParams } from "../compaction/policies/types";
import type { LlmClient } from "../llm/types";
import type { Tokenizer } from "../tokens/tokenizer";
import type { FormatId, Session } from "../trace/model";
import type { PriceChoice } from "./model-prices";
import type { PlannerRound } from "./planner-rounds";
import type { RolloutFigures } from "./rollout-figures";

/*
 * The shapes of a rollout: what goes in (sessions, options) and what comes out (the report
 * `tracefold rollout --json` prints), shared by the suite and the per-session walks the studio stores.
 */

export interface RolloutItem {
  session: Session;
  tokenizer: Tokenizer;
  /** Where the session came from (a file path, an upload name); reported, never read. */
  source?: string;
}

export interface RolloutSuiteOptions {
  /** A fixed context window for every session; absent: per session, `defaultSimWindow`. */
  window?: number;
  /** Budget trigger share of the window; set as `triggerRatio` on the policies that have one. */
  trigger?: number;
  /** Per policy id: parameter overrides. */
  params?: Record<string, PolicyParams>;
  prices?: PriceChoice;
  cacheTtlMs?: number;
  /**
   * The harness's hard limit (default off): where a policy's own decision leaves the prompt over the
   * window, the harness asks it to compact to its trigger share of the window (`RolloutOptions.hardLimit`).
   */
  hardLimit?: boolean;
  /** Judge each commit (default true). */
  judge?: boolean;
  /**
   * The model client for policies that call one (pass params `{planner: "llm"}` for self-gc). Each
   * planner round is priced at the endpoint's reported cost, else at the planner model's entry in
   * `prices` (a fixed price prices every round), else left unpriced.
   */
  llm?: LlmClient;
  /** Sessions the items will give, for progress when they come from an async source. */
  total?: number;
  /** Called after each session × policy walk (`done` counts walks). */
  onProgress?: (done: number, total: number, sessionId: string) => void | Promise<void>;
}

/** One session's figures under each policy, and where it lost something first. */
export interface RolloutSessionReport {
  session: string;
  format: FormatId;
  source?: string;
  window: number;
  model: string | null;
  /** The price-table entry (or the fixed price) the session was billed at; null: unpriced. */
  priced: string | null;
  policies: (RolloutFigures & {
    /** The first calls that lost a dependency (call index, original message, values), at most 5. */
    firstLosses: { call: number; message: number; values: string[] }[];
    /** Per call: [prompt tokens without, with, 1 when a commit happened right before it, tokens restored before it]. */
    series: [number, number, 0 | 1, number][];
    /** Each LLM planner round with what it cost (reported, else priced; null: unpriced); absent without rounds. */
    plannerRounds?: (PlannerRound & { cost: number | null })[];
  })[];
}

export interface RolloutReport {
  trigger: number;
  window: number | null;
  /** Whether the harness's hard limit was on. */
  hardLimit: boolean;
  policies: RolloutFigures[];
  sessions: RolloutSessionReport[];
}
