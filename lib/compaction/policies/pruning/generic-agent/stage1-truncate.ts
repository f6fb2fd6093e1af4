import type { ContextObject } from "../../../context/objects";
import type { Part } from "../../../../trace/model";
import type { PolicyContext } from "../../types";
import { partBody, rewriteEntry, withBody, type GaHistory } from "./history";

/**
 * Stage 1 — tool-output truncation (seed 002 §2.3.4): each tool handler caps its return value
 * before it enters the history; above the threshold L only the first and last L/2 characters stay,
 * the middle replaced with an ellipsis. Thresholds from seed 002 Table 1, mapped onto Tracefold's
 * normalised tool names.
 */
export const STAGE1_LIMITS = {
  /** Table 1: `code_run` 10,000 chars — our `exec`. */
  code_run: 10_000,
  /** Table 1: `web_execute_js` 8,000 chars (raw name; normalised to `browser`). */
  web_execute_js: 8_000,
  /** Table 1: `web_scan` (text_only) 10,000 chars — our `browser`. The HTML mode's 35,000 is a DOM budget, not head/tail. */
  web_scan: 10_000,
  /** Table 1: `file_read` 20,000 chars total — our `read`. */
  file_read: 20_000,
  /** Tools Table 1 does not list. */
  default: 10_000,
} as const;

/** Table 1: `file_read` also caps each line at ~1,280 chars. */
export const FILE_READ_LINE_CHARS = 1_280;

export interface Stage1Limit {
  gaTool: keyof typeof STAGE1_LIMITS;
  limit: number;
}

/** GA's threshold for a function object's tool. */
export function stage1Limit(object: Pick<ContextObject, "tool" | "rawTool">): Stage1Limit {
  if (
    (object.rawTool ?? "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "_")
      .endsWith("web_execute_js")
  )
    return pick("web_execute_js");
  switch (object.tool) {
    case "exec":
      return pick("code_run");
    case "browser":
      return pick("web_scan");
    case "read":
      return pick("file_read");
    default:
      return pick("default");
  }
}

function pick(gaTool: keyof typeof STAGE1_LIMITS): Stage1Limit {
  return { gaTool, limit: STAGE1_LIMITS[gaTool] };
}

/** Head L/2 + ellipsis + tail L/2 when the text is longer than L (GA's `smart_format`). */
export function truncateHeadTail(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const half = Math.floor(limit / 2);
  return `${text.slice(0, half)}\n...[${text.length - 2 * half} chars omitted]...\n${text.slice(text.length - half)}`;
}

/** The stage 1 form of a tool result's text. */
export function truncateToolOutput(text: string, limit: Stage1Limit): string {
  let out = text;
  if (limit.gaTool === "file_read") {
    out = out
      .split("\n")
      .map((line) => (line.length > FILE_READ_LINE_CHARS ? `${line.slice(0, FILE_READ_LINE_CHARS)} ... [TRUNCATED]` : line))
      .join("\n");
  }
  return truncateHeadTail(out, limit.limit);
}

/** Stage 1 on one part, given the function object it belongs to (undefined: not a tool result). */
export function truncatePart(part: Part, object: ContextObject | undefined): Part | undefined {
  if (part.type !== "tool_result" || !object) return undefined;
  const next = truncateToolOutput(partBody(part), stage1Limit(object));
  return next === part.content ? undefined : withBody(part, next);
}

/** Applies stage 1 to every editable tool result; returns how many were truncated. */
export function applyStage1(ctx: PolicyContext, history: GaHistory): number {
  let truncated = 0;
  for (const entry of history.entries) {
    truncated += rewriteEntry(history, entry, "stage1-truncate", (part, p) => truncatePart(part, objectAt(ctx, entry.message, p)));
  }
  return truncated;
}

export function objectAt(ctx: Pick<PolicyContext, "index">, message: number, part: number): ContextObject | undefined {
  const id = ctx.index.functionAt.get(`${message}:${part}`);
  return id ? ctx.index.byId.get(id) : undefined;
}
