import type { Part, Role } from "../../trace/model";

/**
 * What a policy may do to a piece of context. fold / mask / prune are seed 000's lifecycle actions;
 * summarize and truncate cover the summary families (seed 001, 003, real harnesses) and per-output
 * truncation (seed 002 stage 1, harness tool-output caps).
 */
export const ACTION_KINDS = ["keep", "fold", "mask", "prune", "summarize", "truncate"] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

/** A located piece of the original prefix: message index and part index. */
export interface PartRef {
  message: number;
  part: number;
}

/** One decision a policy made, with the rule that made it (shown in the studio and the CLI). */
export interface PolicyAction {
  /** Object id (`function:read:3`, `conversation:user:2`) or `message:<i>` for non-objects. */
  target: string;
  action: Exclude<ActionKind, "keep">;
  reason: string;
  /** Short machine-readable rule id (`tool-prune/greedy-oldest`, `self-gc/live-handle`). */
  rule: string;
  tokensBefore: number;
  tokensAfter: number;
}

/** A proposed action the harness refused (invalid id, touches the cut turn, overlaps…). */
export interface RejectedAction {
  target: string;
  reason: string;
}

/** A part of the projected view, with where it came from and what was done to it. */
export type ViewPart = Part & {
  origin?: PartRef;
  /** Set when the part's content was changed (mask, fold pointer, truncation). */
  action?: ActionKind;
  /** The context object this part belongs to, when it is one. */
  objectId?: string;
};

export interface ViewMessage {
  role: Role;
  parts: ViewPart[];
  /** Source message index, or what the harness inserted. */
  origin: number | "summary" | "reminder";
}

/** The exact payload a fold moved out of the active view, addressed by content. */
export interface Sidecar {
  target: string;
  sha256: string;
  /** UTF-8 byte length of `payload`. */
  bytes: number;
  payload: string;
}

/**
 * Edits over the prefix, as policies express them. `materializeView` turns them into a view and
 * enforces the invariants (lineage, protected turn, provider validity).
 */
export interface EditPlan {
  /** Whole messages removed from the view. */
  dropMessages: Set<number>;
  /** Part-level edits keyed `message:part`. */
  parts: Map<string, PartEdit>;
  /**
   * A summary message (role user) inserted before message `at` — seed 001's tail-start pointer —
   * optionally followed by an assistant `reply` (Gemini CLI acknowledges its state snapshot).
   */
  summary?: { text: string; at: number; reply?: string };
  /** Control-plane reminders appended to user messages (fold recovery pointers), keyed by message. */
  reminders: Map<number, string[]>;
}

export type PartEdit = { op: "drop" } | { op: "replace"; text: string; action: ActionKind };

export function emptyPlan(): EditPlan {
  return { dropMessages: new Set(), parts: new Map(), reminders: new Map() };
}

export function partKey(ref: PartRef): string {
  return `${ref.message}:${ref.part}`;
}
