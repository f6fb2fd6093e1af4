/**
 * Shared types of the dependency judge. Field names are a public contract: they appear in stored
 * verdicts (`evidence.dependencies`) and in the studio.
 */
import type { PolicyAction, RejectedAction, Sidecar, ViewMessage } from "../../compaction/projection/types";
import type { FailureCategory } from "../../scenario/failure-categories";

/**
 * What kind of value a future step needed from the prefix:
 * - `url`, `path`, `id` — locators and handles (ids include hashes, UUIDs, job/task/entry ids);
 * - `number` — row values, amounts, metrics (≥ 3 significant digits, or currency/decimal/percent);
 * - `identifier` — code identifiers (camelCase, snake_case, ≥ 6 chars) rare in the prefix;
 * - `verbatim` — quoted spans (≥ 12 chars) and long exact spans (≥ 40 chars) shared with the prefix;
 * - `constraint` — a user constraint or correction sentence from the prefix.
 */
export const DEPENDENCY_KINDS = ["url", "path", "id", "number", "identifier", "verbatim", "constraint"] as const;
export type DependencyKind = (typeof DEPENDENCY_KINDS)[number];

/** A part of the session: `session.messages[message].parts[part]`. */
export interface PartRef {
  message: number;
  part: number;
}

/** Where a value sits in the prefix, with the context object that holds it. */
export interface PlantedRef extends PartRef {
  /** `function:<tool>:n` for a tool result, else the enclosing `conversation:user:k` (absent in the preamble). */
  objectId?: string;
  /** The enclosing conversation object, when there is one. */
  turnId?: string;
}

export interface Dependency {
  /** `dep-<n>`, unique within one extraction, in order of first future use. */
  id: string;
  value: string;
  kind: DependencyKind;
  /** First occurrence in the prefix. */
  plantedAt: PlantedRef;
  /** Further prefix occurrences (distinct parts, capped at `MAX_OCCURRENCES`). */
  alsoAt: PartRef[];
  /** Distinct prefix parts that contain the value (uncapped). */
  prefixParts: number;
  /** The first future assistant step (text or tool-call arguments) that used it. */
  usedAt: PartRef;
  /** Whether `usedAt` comes before the first future user request (the immediate continuation). */
  usedBeforeNextRequest: boolean;
}

/** Dependencies of one cut, plus what the judge needs to say how sure it is. */
export interface DependencySet {
  sessionId: string;
  cut: number;
  dependencies: Dependency[];
  /** Future assistant messages with content (the judge is uncertain when this is tiny). */
  futureAssistantSteps: number;
  /** Characters of future assistant text and tool-call arguments. */
  futureAssistantChars: number;
  /**
   * Candidates considered and why the rest were dropped, for logs and tests: not in the prefix,
   * re-discovered by the future first, a common identifier, or a span only the agent's own short
   * tool calls contained.
   */
  stats: { candidates: number; notInPrefix: number; rediscovered: number; common: number; ownCommand: number };
}

/**
 * The three verdicts of one dependency (issue 16: "visible / restorable / lost"):
 * - `visible` — the exact value is in the view's text;
 * - `restorable` — not visible, but inside a sidecar payload whose digest the view names, so the
 *   agent can restore it (at a cost: the sidecar's tokens plus one tool call);
 * - `lost` — neither.
 */
export const DEPENDENCY_STATUSES = ["visible", "restorable", "lost"] as const;
export type DependencyStatus = (typeof DEPENDENCY_STATUSES)[number];

/** The policy action that removed a dependency from the view. */
export interface LostBy {
  target: string;
  action: string;
  rule: string;
}

/** A sidecar the future would restore, and what restoring it costs. */
export interface RestoreCost {
  /** The folded object's id (or `message:<i>` for a spill). */
  target: string;
  sha256: string;
  /** Tokens of the payload brought back into the view. */
  tokens: number;
  /** `tokens` + the restore call's overhead (`RESTORE_CALL_TOKENS`). */
  cost: number;
}

export interface CheckedDependency extends Dependency {
  status: DependencyStatus;
  /** Set for lost dependencies (Table 7 taxonomy). */
  category?: FailureCategory;
  /** For lost dependencies: the action that lost the planting occurrence, when attributable. */
  lostBy?: LostBy;
  /** For values inside a sidecar: its object and digest (restorable ones, and losses to an unnamed sidecar). */
  sidecar?: { target: string; sha256: string };
}

/**
 * What the judge reads of the harness's object index: which object each prefix part belongs to.
 * Declared here rather than imported so the judge depends on no policy-side module (lib/compaction/context
 * builds anchors the planner uses); the harness's `ContextIndex` satisfies it structurally.
 */
export interface JudgeObject {
  id: string;
  kind: "conversation" | "function";
  firstMessage: number;
  lastMessage: number;
  parentId?: string;
  /** The tool_call part a function object answers. */
  call?: PartRef;
}

export interface JudgeIndex {
  objects: readonly JudgeObject[];
  byId: ReadonlyMap<string, JudgeObject>;
  /** Conversation object id owning each message (undefined in the preamble). */
  turnOf: readonly (string | undefined)[];
  /** Function object id of each tool_result part, keyed `message:part`. */
  functionAt: ReadonlyMap<string, string>;
}

/** The harness output under judgement: the view, its sidecars and the actions behind it. */
export interface JudgedView {
  cut: number;
  view: readonly ViewMessage[];
  sidecars: readonly Sidecar[];
  actions: readonly { target: string; action: string; rule: string }[];
}

/**
 * A whole policy run as a judge may read it (the LLM judge's packet shows the edits and their
 * reasons); the harness's `PolicyResult` satisfies it structurally.
 */
export interface JudgedRun extends JudgedView {
  policy: string;
  sessionId: string;
  tokensBefore: number;
  tokensAfter: number;
  pruneRate: number;
  actions: readonly PolicyAction[];
  rejected: readonly RejectedAction[];
  summary?: string;
}
