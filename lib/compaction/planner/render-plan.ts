import { shortId } from "./ids";
import type { GcPlan, PlanActionKind, PlanObjectKind } from "./plan-types";

/**
 * Writes a plan in seed 000's Listing 2 schema. The rule-based planner emits its decisions through
 * this, so they travel the same parse → rehearse → commit path as an LLM's output.
 */
export interface PlanDecision {
  action: PlanActionKind;
  kind: PlanObjectKind;
  /** Canonical object id. */
  id: string;
  /** `code` or `code: detail` (the code becomes the policy rule id `self-gc/<code>`). */
  reason: string;
}

/** Decisions sharing action, kind and reason are grouped into one element, in first-seen order. */
export function renderPlanXml(summary: string, decisions: PlanDecision[]): string {
  const groups = new Map<string, { action: PlanActionKind; kind: PlanObjectKind; reason: string; ids: string[] }>();
  for (const d of decisions) {
    const key = `${d.action}\u0000${d.kind}\u0000${d.reason}`;
    const group = groups.get(key) ?? { action: d.action, kind: d.kind, reason: d.reason, ids: [] };
    group.ids.push(shortId(d.id));
    groups.set(key, group);
  }
  const lines = ["<above_conversation_summary>", escapeText(summary), "</above_conversation_summary>", "<gc_plan>"];
  for (const g of groups.values()) {
    lines.push(`  <${g.action} kind="${g.kind}" reason="${escapeAttribute(g.reason)}">`, `    ${g.ids.join(" ")}`, `  </${g.action}>`);
  }
  lines.push("</gc_plan>");
  return lines.join("\n");
}

/** Round-trips a parsed plan back to XML (used by tests and the studio's plan view). */
export function planToXml(plan: GcPlan): string {
  return renderPlanXml(
    plan.summary,
    plan.actions.flatMap((a) => a.targets.map((t) => ({ action: a.action, kind: a.kind, id: t.id, reason: a.reason }))),
  );
}

function escapeText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function escapeAttribute(text: string): string {
  return escapeText(text).replace(/"/g, "&quot;").replace(/\s+/g, " ");
}

/** The rule id a reason maps to: its leading snake_case code, or `planner` for free text. */
export function reasonCode(reason: string): string {
  const code = /^([a-z][a-z0-9_]*)(?::|$)/.exec(reason.trim())?.[1];
  return code ?? "planner";
}
