import { readAction, skipElement } from "./parse-action";
import { PLAN_ACTIONS, type GcPlan, type PlanAction, type PlanParseError, type PlanParseResult, type Position } from "./plan-types";
import { positionMapper, scanXml, type XmlToken } from "./xml-scan";

/**
 * Strict parser for seed 000's planner output (Listing 2): `<above_conversation_summary>` then
 * `<gc_plan>` holding `<fold|mask|prune kind reason>` elements. Tolerates only surrounding
 * whitespace and one optional ```xml fence; everything else that is wrong is reported as a typed
 * error with its line:column, all of them, not just the first. A target named twice is a warning:
 * the plan stays usable and rehearsal keeps the most conservative action.
 */
export function parsePlan(raw: string): PlanParseResult {
  const at = positionMapper(raw);
  const errors: PlanParseError[] = [];
  const fail = (code: PlanParseError["code"], message: string, position: Position) => errors.push({ code, severity: "error", message, ...position });
  const { start, end } = contentRegion(raw);
  if (start >= end) {
    fail("empty_output", "the planner returned no plan", at(0));
    return { errors };
  }
  const scan = scanXml(raw, start, end, at);
  errors.push(...scan.errors);
  const tokens = scan.tokens;

  let summary: string | undefined;
  let summaryAt: Position | undefined;
  let actions: PlanAction[] | undefined;
  let planAt: Position | undefined;
  let i = 0;
  while (i < tokens.length) {
    const token = tokens[i]!;
    if (token.type === "text") {
      if (token.text.trim()) fail("text_outside_blocks", `text outside the two blocks: ${excerpt(token.text)}`, firstNonSpace(token, at));
      i++;
    } else if (token.type === "close") {
      fail("mismatched_close", `</${token.name}> closes nothing`, token.position);
      i++;
    } else if (token.name === "above_conversation_summary") {
      if (summaryAt) fail("duplicate_block", `second <above_conversation_summary> (the first is at ${summaryAt.line}:${summaryAt.column})`, token.position);
      else if (planAt) fail("wrong_order", "<above_conversation_summary> must come before <gc_plan>", token.position);
      summaryAt ??= token.position;
      const read = readSummary(tokens, i, fail);
      summary ??= read.text;
      i = read.next;
    } else if (token.name === "gc_plan") {
      if (planAt) fail("duplicate_block", `second <gc_plan> (the first is at ${planAt.line}:${planAt.column})`, token.position);
      planAt ??= token.position;
      const read = readGcPlan(tokens, i, at, errors);
      actions ??= read.actions;
      i = read.next;
    } else {
      fail("unknown_element", `<${token.name}> is not part of the plan (expected <above_conversation_summary> then <gc_plan>)`, token.position);
      i = skipElement(tokens, i);
    }
  }
  if (!summaryAt) fail("missing_summary", "no <above_conversation_summary> block", at(start));
  if (!planAt) fail("missing_plan", "no <gc_plan> block", at(end));
  if (actions) reportDuplicateTargets(actions, errors);
  const ok = !errors.some((e) => e.severity === "error");
  errors.sort((a, b) => a.line - b.line || a.column - b.column);
  const plan: GcPlan | undefined = ok && summary !== undefined && actions ? { summary, actions } : undefined;
  return { ...(plan ? { plan } : {}), errors };
}

/** The offsets between surrounding whitespace and an optional ``` / ```xml fence. */
function contentRegion(raw: string): { start: number; end: number } {
  let start = raw.length - raw.trimStart().length;
  let end = raw.trimEnd().length;
  const fence = /^```[ \t]*(?:xml)?[ \t]*\r?\n/i.exec(raw.slice(start, end));
  if (fence && end - start > fence[0].length + 3 && raw.slice(end - 3, end) === "```") {
    start += fence[0].length;
    end -= 3;
  }
  return { start, end };
}

function readSummary(
  tokens: XmlToken[],
  start: number,
  fail: (code: PlanParseError["code"], message: string, position: Position) => void,
): { text: string; next: number } {
  const open = tokens[start]!;
  if (open.type !== "open") throw new Error("readSummary must start at an open tag");
  for (const a of open.attributes) fail("unknown_attribute", `<above_conversation_summary> takes no attribute ${a.name}`, a.position);
  if (open.selfClosing) {
    fail("empty_summary", "<above_conversation_summary> is empty", open.position);
    return { text: "", next: start + 1 };
  }
  let text = "";
  for (let i = start + 1; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.type === "text") text += token.text;
    else if (token.type === "open") {
      fail("nested_element", `<${token.name}> is not allowed inside <above_conversation_summary>`, token.position);
      i = skipElement(tokens, i) - 1;
    } else {
      if (token.name !== "above_conversation_summary") fail("mismatched_close", `</${token.name}> closes <above_conversation_summary>`, token.position);
      if (!text.trim()) fail("empty_summary", "<above_conversation_summary> is empty", open.position);
      return { text: text.trim().replace(/\s+/g, " "), next: i + 1 };
    }
  }
  fail("unclosed_element", "<above_conversation_summary> is never closed", open.position);
  return { text: text.trim(), next: tokens.length };
}

function readGcPlan(tokens: XmlToken[], start: number, at: (offset: number) => Position, errors: PlanParseError[]): { actions: PlanAction[]; next: number } {
  const open = tokens[start]!;
  if (open.type !== "open") throw new Error("readGcPlan must start at an open tag");
  const fail = (code: PlanParseError["code"], message: string, position: Position) => errors.push({ code, severity: "error", message, ...position });
  for (const a of open.attributes) fail("unknown_attribute", `<gc_plan> takes no attribute ${a.name}`, a.position);
  const actions: PlanAction[] = [];
  if (open.selfClosing) return { actions, next: start + 1 };
  let i = start + 1;
  while (i < tokens.length) {
    const token = tokens[i]!;
    if (token.type === "text") {
      if (token.text.trim()) fail("text_outside_blocks", `text between actions: ${excerpt(token.text)}`, firstNonSpace(token, at));
      i++;
    } else if (token.type === "close") {
      if (token.name !== "gc_plan") fail("mismatched_close", `</${token.name}> closes <gc_plan>`, token.position);
      return { actions, next: i + 1 };
    } else if ((PLAN_ACTIONS as readonly string[]).includes(token.name)) {
      const read = readAction(tokens, i, at, errors);
      if (read.action) actions.push(read.action);
      i = read.next;
    } else {
      fail("unknown_element", `<${token.name}> is not an action (expected fold, mask or prune)`, token.position);
      i = skipElement(tokens, i);
    }
  }
  fail("unclosed_element", "<gc_plan> is never closed", open.position);
  return { actions, next: tokens.length };
}

function reportDuplicateTargets(actions: PlanAction[], errors: PlanParseError[]): void {
  const first = new Map<string, { action: string; position: Position }>();
  for (const action of actions) {
    for (const target of action.targets) {
      const seen = first.get(target.id);
      if (!seen) first.set(target.id, { action: action.action, position: target.position });
      else {
        errors.push({
          code: "duplicate_target",
          severity: "warning",
          message: `${target.id} is already targeted by <${seen.action}> at ${seen.position.line}:${seen.position.column}`,
          ...target.position,
        });
      }
    }
  }
}

function firstNonSpace(token: Extract<XmlToken, { type: "text" }>, at: (offset: number) => Position): Position {
  return at(token.offset + (token.text.length - token.text.trimStart().length));
}

function excerpt(text: string): string {
  const t = text.trim().replace(/\s+/g, " ");
  return JSON.stringify(t.length > 40 ? `${t.slice(0, 40)}…` : t);
}
