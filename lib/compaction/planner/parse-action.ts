import { resolveWrittenId } from "./ids";
import {
  PLAN_OBJECT_KINDS,
  type PlanAction,
  type PlanActionKind,
  type PlanObjectKind,
  type PlanParseError,
  type PlanTarget,
  type Position,
} from "./plan-types";
import type { XmlAttribute, XmlToken } from "./xml-scan";

/**
 * Reads one `<fold|mask|prune kind="…" reason="…">ids</…>` element of seed 000's gc_plan
 * (Listing 2). Ids may be short (`user:5`, `read:12`) or full, one or many, separated by
 * whitespace or commas. Every problem is reported with its position; the action is returned only
 * when it is usable.
 */
export interface ActionReadResult {
  action?: PlanAction;
  /** Index of the token after the element. */
  next: number;
}

const ALLOWED_ATTRIBUTES = new Set(["kind", "reason"]);

export function readAction(tokens: XmlToken[], start: number, at: (offset: number) => Position, errors: PlanParseError[]): ActionReadResult {
  const open = tokens[start]!;
  if (open.type !== "open") throw new Error("readAction must start at an open tag");
  const name = open.name as PlanActionKind;
  const errorsBefore = errors.length;
  const fail = (code: PlanParseError["code"], message: string, position: Position) => errors.push({ code, severity: "error", message, ...position });
  // A malformed tag was already reported; its attributes are not trusted or re-reported.
  const { kind, reason } = open.malformed ? {} : readAttributes(name, open.attributes, open.position, fail);

  const targets: PlanTarget[] = [];
  let written = 0;
  let i = start + 1;
  let closed = open.selfClosing;
  while (!closed && i < tokens.length) {
    const token = tokens[i]!;
    if (token.type === "text") {
      for (const m of token.text.matchAll(/[^\s,]+/g)) {
        written++;
        const position = at(token.offset + m.index);
        const resolved = kind ? resolveWrittenId(m[0], kind) : resolveWrittenId(m[0], "function");
        if (resolved.ok) targets.push({ id: resolved.id, written: m[0], position });
        else if (resolved.problem === "bad_id" || kind) fail(resolved.problem, `<${name}>: ${resolved.message}`, position);
      }
      i++;
    } else if (token.type === "open") {
      fail("nested_element", `<${token.name}> is not allowed inside <${name}> (it holds object ids only)`, token.position);
      i = skipElement(tokens, i);
    } else {
      if (token.name !== name)
        fail("mismatched_close", `</${token.name}> closes <${name}> opened at ${open.position.line}:${open.position.column}`, token.position);
      closed = true;
      i++;
    }
  }
  if (!closed) fail("unclosed_element", `<${name}> is never closed`, open.position);
  if (written === 0 && !open.malformed) fail("empty_target", `<${name}> names no object id`, open.position);
  const usable = !open.malformed && errors.length === errorsBefore && kind !== undefined && reason !== undefined;
  return { next: i, ...(usable ? { action: { action: name, kind, reason, targets, position: open.position } } : {}) };
}

function readAttributes(
  name: string,
  attributes: XmlAttribute[],
  position: Position,
  fail: (code: PlanParseError["code"], message: string, position: Position) => void,
): { kind?: PlanObjectKind; reason?: string } {
  let kind: PlanObjectKind | undefined;
  let reason: string | undefined;
  for (const attribute of attributes) {
    if (!ALLOWED_ATTRIBUTES.has(attribute.name)) {
      fail("unknown_attribute", `<${name}> has no attribute ${attribute.name} (allowed: kind, reason)`, attribute.position);
    } else if (attribute.name === "kind") {
      if ((PLAN_OBJECT_KINDS as readonly string[]).includes(attribute.value)) kind = attribute.value as PlanObjectKind;
      else fail("bad_kind", `kind="${attribute.value}" must be "conversation" or "function"`, attribute.position);
    } else if (attribute.value.trim() === "") {
      fail("empty_reason", `<${name}> has an empty reason`, attribute.position);
    } else reason = attribute.value.trim();
  }
  const names = new Set(attributes.map((a) => a.name));
  if (!names.has("kind")) fail("missing_attribute", `<${name}> needs kind="conversation" or kind="function"`, position);
  if (!names.has("reason")) fail("missing_attribute", `<${name}> needs a reason="…" attribute`, position);
  return { ...(kind ? { kind } : {}), ...(reason !== undefined ? { reason } : {}) };
}

/** Index after the element opened at `start` (or after the input, when it is never closed). */
export function skipElement(tokens: XmlToken[], start: number): number {
  const open = tokens[start]!;
  if (open.type !== "open" || open.selfClosing) return start + 1;
  let depth = 0;
  for (let i = start; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.type === "open" && !token.selfClosing) depth++;
    else if (token.type === "close" && --depth === 0) return i + 1;
  }
  return tokens.length;
}
