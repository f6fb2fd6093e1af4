import type { PlanParseError, Position } from "./plan-types";

/**
 * A scanner for the small XML subset of seed 000's planner output (Listing 2): elements with
 * quoted attributes, self-closing tags and text. No DTDs, CDATA or comments: the schema has none,
 * and the parser must report anything unexpected with its exact position. Linear in the input.
 */
export interface XmlAttribute {
  name: string;
  value: string;
  position: Position;
}

export type XmlToken =
  | { type: "open"; name: string; attributes: XmlAttribute[]; selfClosing: boolean; position: Position; malformed?: boolean }
  | { type: "close"; name: string; position: Position }
  | { type: "text"; text: string; position: Position; offset: number };

export interface ScanResult {
  tokens: XmlToken[];
  errors: PlanParseError[];
}

const NAME = /[A-Za-z_][\w.-]*/y;
const SPACE = /\s*/y;
const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/** Maps offsets to 1-based line:column through a table of line starts. */
export function positionMapper(text: string): (offset: number) => Position {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - starts[lo]! + 1 };
  };
}

export function decodeEntities(text: string): string {
  return text.replace(/&(lt|gt|amp|quot|apos);/g, (_, name: string) => ENTITIES[name]!);
}

/** Scans `text[start..end)`; positions refer to the whole text. */
export function scanXml(text: string, start: number, end: number, at: (offset: number) => Position): ScanResult {
  const tokens: XmlToken[] = [];
  const errors: PlanParseError[] = [];
  const fail = (offset: number, message: string, code: PlanParseError["code"] = "malformed_tag") =>
    errors.push({ code, severity: "error", message, ...at(offset) });
  const match = (re: RegExp, offset: number): string | undefined => {
    re.lastIndex = offset;
    const m = re.exec(text);
    return m && m.index === offset && offset + m[0].length <= end ? m[0] : undefined;
  };
  const skipTo = (offset: number): number => {
    const gt = text.indexOf(">", offset);
    return gt === -1 || gt >= end ? end : gt + 1;
  };

  let i = start;
  while (i < end) {
    const lt = text.indexOf("<", i);
    const stop = lt === -1 || lt >= end ? end : lt;
    if (stop > i) tokens.push({ type: "text", text: decodeEntities(text.slice(i, stop)), position: at(i), offset: i });
    if (stop === end) break;
    if (text.startsWith("<!--", lt)) {
      const close = text.indexOf("-->", lt);
      fail(lt, "comments are not part of the plan schema", "unknown_element");
      i = close === -1 || close >= end ? end : close + 3;
      continue;
    }
    if (text.startsWith("</", lt)) {
      const name = match(NAME, lt + 2);
      const after = name ? lt + 2 + name.length + (match(SPACE, lt + 2 + name.length)?.length ?? 0) : -1;
      if (!name || text[after] !== ">") {
        fail(lt, "malformed closing tag");
        i = skipTo(lt + 1);
        continue;
      }
      tokens.push({ type: "close", name, position: at(lt) });
      i = after + 1;
      continue;
    }
    const name = match(NAME, lt + 1);
    if (!name) {
      fail(lt, `"<" does not start a tag (write &lt; inside text)`);
      tokens.push({ type: "text", text: "<", position: at(lt), offset: lt });
      i = lt + 1;
      continue;
    }
    const attributes: XmlAttribute[] = [];
    const parsed = scanAttributes(text, lt + 1 + name.length, end, at, match, fail, attributes);
    if (parsed) {
      tokens.push({ type: "open", name, attributes, selfClosing: parsed.selfClosing, position: at(lt) });
      i = parsed.next;
    } else {
      // Keep the element in the structure so one bad tag does not cascade into more errors.
      i = skipTo(lt + 1);
      tokens.push({ type: "open", name, attributes, selfClosing: text[i - 2] === "/", position: at(lt), malformed: true });
    }
  }
  return { tokens, errors };
}

function scanAttributes(
  text: string,
  offset: number,
  end: number,
  at: (offset: number) => Position,
  match: (re: RegExp, offset: number) => string | undefined,
  fail: (offset: number, message: string, code?: PlanParseError["code"]) => void,
  attributes: XmlAttribute[],
): { selfClosing: boolean; next: number } | undefined {
  let i = offset;
  for (;;) {
    const space = match(SPACE, i)?.length ?? 0;
    i += space;
    if (i >= end) return void fail(offset, "tag is not closed with >");
    if (text.startsWith("/>", i)) return { selfClosing: true, next: i + 2 };
    if (text[i] === ">") return { selfClosing: false, next: i + 1 };
    const name = space > 0 || attributes.length === 0 ? match(NAME, i) : undefined;
    if (!name) return void fail(i, `unexpected ${JSON.stringify(text[i])} in tag`);
    const nameAt = i;
    i += name.length;
    i += match(SPACE, i)?.length ?? 0;
    if (text[i] !== "=") return void fail(i, `attribute ${name} has no value (write ${name}="…")`);
    i += 1 + (match(SPACE, i + 1)?.length ?? 0);
    const quote = text[i];
    if (quote !== '"' && quote !== "'") return void fail(i, `value of attribute ${name} must be quoted`);
    const close = text.indexOf(quote, i + 1);
    if (close === -1 || close >= end) return void fail(i, `value of attribute ${name} is not closed`);
    if (attributes.some((a) => a.name === name)) fail(nameAt, `attribute ${name} appears twice`, "duplicate_attribute");
    else attributes.push({ name, value: decodeEntities(text.slice(i + 1, close)), position: at(nameAt) });
    i = close + 1;
  }
}
