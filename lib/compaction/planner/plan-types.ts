/**
 * The parsed form of seed 000's planner output (Listing 2): one short conversation summary and a
 * list of lifecycle actions over existing object ids. Positions point back into the raw XML so
 * every problem can be reported as `line:column`.
 */
export const PLAN_ACTIONS = ["fold", "mask", "prune"] as const;
export type PlanActionKind = (typeof PLAN_ACTIONS)[number];

export const PLAN_OBJECT_KINDS = ["conversation", "function"] as const;
export type PlanObjectKind = (typeof PLAN_OBJECT_KINDS)[number];

/** 1-based line and column in the planner's raw output. */
export interface Position {
  line: number;
  column: number;
}

export interface PlanTarget {
  /** Canonical id (`conversation:user:5`, `function:read:12`). */
  id: string;
  /** The id as the planner wrote it (`user:5`, `read:12` or the full form). */
  written: string;
  position: Position;
}

export interface PlanAction {
  action: PlanActionKind;
  kind: PlanObjectKind;
  reason: string;
  targets: PlanTarget[];
  position: Position;
}

export interface GcPlan {
  summary: string;
  actions: PlanAction[];
}

/** Every way a planner's XML can be wrong; codes are stable (shown in the studio and tests). */
export const PLAN_ERROR_CODES = [
  "empty_output",
  "malformed_tag",
  "missing_summary",
  "missing_plan",
  "wrong_order",
  "duplicate_block",
  "unknown_element",
  "nested_element",
  "unclosed_element",
  "mismatched_close",
  "missing_attribute",
  "unknown_attribute",
  "duplicate_attribute",
  "bad_kind",
  "empty_reason",
  "bad_id",
  "kind_mismatch",
  "empty_target",
  "empty_summary",
  "duplicate_target",
  "text_outside_blocks",
] as const;
export type PlanErrorCode = (typeof PLAN_ERROR_CODES)[number];

/**
 * One problem in the planner's output. `error` makes the plan unusable; `warning` is reported and
 * left to rehearsal (a target named by two actions is normalised to the most conservative one).
 */
export interface PlanParseError {
  code: PlanErrorCode;
  severity: "error" | "warning";
  message: string;
  line: number;
  column: number;
}

export interface PlanParseResult {
  /** Present when no error-severity problem was found. */
  plan?: GcPlan;
  errors: PlanParseError[];
}
