/**
 * Shared types of the dependency judge. Field names are a public contract: they appear in stored
 * verdicts (`evidence.dependencies`) and in the studio.
 */
import type { FailureCategory } from "../scenario/failure-categories";

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

export type DependencyStatus = "visible" | "recoverable" | "missing";

/** The policy action that removed a dependency from the view. */
export interface LostBy {
  target: string;
  action: string;
  rule: string;
}

export interface CheckedDependency extends Dependency {
  status: DependencyStatus;
  /** Set for missing dependencies (Table 7 taxonomy). */
  category?: FailureCategory;
  /** For missing dependencies: the action that lost the planting occurrence, when attributable. */
  lostBy?: LostBy;
  /** For values inside a sidecar: its object and digest (also set for recovery-routing losses). */
  sidecar?: { target: string; sha256: string };
}
