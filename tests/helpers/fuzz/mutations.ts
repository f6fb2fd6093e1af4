import fc from "fast-check";

/**
 * Mutations of a valid trace, as plain data so fast-check can shrink and replay them. Positions
 * are fractions (0..1) of whatever they apply to, so one mutation fits any seed.
 */
export type Mutation =
  | { op: "truncate"; at: number }
  | { op: "deleteLine" | "duplicateLine"; at: number }
  | { op: "swapLines"; at: number; with: number }
  | { op: "replaceValue"; line: number; at: number; value: WrongValue }
  | { op: "dropField"; line: number; at: number }
  | { op: "flipByte"; at: number; bit: number }
  | { op: "insertBytes"; at: number; bytes: number[] }
  | { op: "bom" | "crlf" | "stripFinalNewline" | "blankLines" };

/** What a JSON value is replaced with: wrong types, null, huge strings, deep nesting. */
export type WrongValue = { kind: "json"; value: unknown } | { kind: "huge"; length: number } | { kind: "deep"; depth: number; open: "[" | "{" };

const fraction = fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true });

const wrongValue: fc.Arbitrary<WrongValue> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .constantFrom<unknown>(null, 0, -1, 1e308, true, false, "", "x", [], {}, [null], { type: 7 }, "\ud800", { __proto__: null, role: 42 })
      .map((value) => ({ kind: "json" as const, value })),
  },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => ({ kind: "json" as const, value })) },
  { weight: 1, arbitrary: fc.integer({ min: 100_000, max: 1_000_000 }).map((length) => ({ kind: "huge" as const, length })) },
  {
    weight: 1,
    arbitrary: fc
      .record({ depth: fc.integer({ min: 200, max: 200_000 }), open: fc.constantFrom<"[" | "{">("[", "{") })
      .map((d) => ({ kind: "deep" as const, ...d })),
  },
);

/** Invalid UTF-8 and other hostile byte runs. */
const badBytes: fc.Arbitrary<number[]> = fc.constantFrom<number[]>(
  [0xff],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0x80],
  [0xe2, 0x82],
  [0xf4, 0x90, 0x80, 0x80],
  [0x00],
  [0x0d],
  [0xef, 0xbb, 0xbf],
);

export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 3, arbitrary: fraction.map((at) => ({ op: "truncate" as const, at })) },
  { weight: 2, arbitrary: fc.record({ op: fc.constantFrom<"deleteLine" | "duplicateLine">("deleteLine", "duplicateLine"), at: fraction }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("swapLines" as const), at: fraction, with: fraction }) },
  { weight: 6, arbitrary: fc.record({ op: fc.constant("replaceValue" as const), line: fraction, at: fraction, value: wrongValue }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant("dropField" as const), line: fraction, at: fraction }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("flipByte" as const), at: fraction, bit: fc.integer({ min: 0, max: 7 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("insertBytes" as const), at: fraction, bytes: badBytes }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<"bom" | "crlf" | "stripFinalNewline" | "blankLines">("bom", "crlf", "stripFinalNewline", "blankLines").map((op) => ({ op })),
  },
);

/** Applies mutations in order; text stays a string until a byte-level mutation needs bytes. */
export function applyMutations(text: string, mutations: Mutation[], isJsonl: boolean): Uint8Array {
  let bytes: Uint8Array | undefined;
  let current = text;
  for (const m of mutations) {
    if (m.op === "truncate" || m.op === "flipByte" || m.op === "insertBytes" || m.op === "bom") {
      bytes = applyByteMutation(bytes ?? encode(current), m);
      continue;
    }
    if (bytes) current = new TextDecoder().decode(bytes); // lossy after byte damage, which is fine
    bytes = undefined;
    current = applyTextMutation(current, m, isJsonl);
  }
  return bytes ?? encode(current);
}

function applyByteMutation(bytes: Uint8Array, m: Mutation): Uint8Array {
  const at = "at" in m ? Math.floor(m.at * bytes.length) : 0;
  if (m.op === "truncate") return bytes.slice(0, at);
  if (m.op === "flipByte") {
    if (bytes.length === 0) return bytes;
    const copy = bytes.slice();
    copy[at] = (copy[at] ?? 0) ^ (1 << m.bit);
    return copy;
  }
  const insert = m.op === "bom" ? [0xef, 0xbb, 0xbf] : m.op === "insertBytes" ? m.bytes : [];
  return concat(bytes.slice(0, at), Uint8Array.from(insert), bytes.slice(at));
}

function applyTextMutation(text: string, m: Mutation, isJsonl: boolean): string {
  switch (m.op) {
    case "crlf":
      return text.replace(/\r?\n/g, "\r\n");
    case "stripFinalNewline":
      return text.replace(/\r?\n$/, "");
    case "blankLines":
      return text.replace(/\n/g, "\n\n   \n");
    case "deleteLine":
    case "duplicateLine":
    case "swapLines": {
      const lines = text.split("\n");
      const i = Math.floor(m.at * lines.length);
      if (m.op === "deleteLine") lines.splice(i, 1);
      else if (m.op === "duplicateLine") lines.splice(i, 0, lines[i] ?? "");
      else {
        const j = Math.floor((m.op === "swapLines" ? m.with : 0) * lines.length);
        [lines[i], lines[j]] = [lines[j] ?? "", lines[i] ?? ""];
      }
      return lines.join("\n");
    }
    case "replaceValue":
    case "dropField":
      return isJsonl ? mutateJsonLine(text, m) : (mutateJsonText(text, m, true) ?? text);
    default:
      return text;
  }
}

function mutateJsonLine(text: string, m: Extract<Mutation, { op: "replaceValue" | "dropField" }>): string {
  const lines = text.split("\n");
  const i = Math.floor(m.line * lines.length);
  const mutated = mutateJsonText(lines[i] ?? "", m, false);
  if (mutated === undefined) return text;
  lines[i] = mutated;
  return lines.join("\n");
}

const DEEP_MARK = "\u0001fuzz-deep\u0001";

/** Replaces or drops the value at a random path of a JSON text; undefined when it is not JSON. */
function mutateJsonText(text: string, m: Extract<Mutation, { op: "replaceValue" | "dropField" }>, pretty: boolean): string | undefined {
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch {
    return undefined;
  }
  const slots = collectSlots(root, m.op === "dropField");
  const slot = slots[Math.floor(m.at * slots.length)];
  if (!slot) return undefined;
  if (m.op === "dropField") {
    delete (slot.parent as Record<string, unknown>)[slot.key];
  } else {
    const value = m.value.kind === "json" ? m.value.value : m.value.kind === "huge" ? "A".repeat(m.value.length) : DEEP_MARK;
    if (slot.parent === undefined) root = value;
    else (slot.parent as Record<string, unknown>)[slot.key] = value;
  }
  const out = JSON.stringify(root, null, pretty ? 2 : undefined) ?? "null";
  if (m.op !== "replaceValue" || m.value.kind !== "deep") return out;
  const { depth, open } = m.value;
  const close = open === "[" ? "]" : "}";
  const deep = open === "[" ? "[".repeat(depth) + "]".repeat(depth) : '{"a":'.repeat(depth) + "1" + close.repeat(depth);
  return out.replace(JSON.stringify(DEEP_MARK), deep);
}

interface Slot {
  parent: unknown;
  key: string | number;
}

/** Every replaceable position (or every object key, for drops), breadth-first, at most 4,000. */
function collectSlots(root: unknown, keysOnly: boolean): Slot[] {
  const slots: Slot[] = keysOnly ? [] : [{ parent: undefined, key: "" }];
  const queue: unknown[] = [root];
  while (queue.length > 0 && slots.length < 4000) {
    const node = queue.shift();
    if (Array.isArray(node)) {
      node.forEach((child, i) => {
        if (!keysOnly) slots.push({ parent: node, key: i });
        queue.push(child);
      });
    } else if (node && typeof node === "object") {
      for (const [key, child] of Object.entries(node)) {
        slots.push({ parent: node, key });
        queue.push(child);
      }
    }
  }
  return slots;
}

function encode(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
