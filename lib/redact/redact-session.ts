import type { Part, Session } from "../trace/model";
import { applySpans, findSecrets, type RedactOptions, type SecretSpan } from "./find-secrets";

/** Where one redacted secret was: message and part, which field, offsets within that string. */
export interface Redaction extends SecretSpan {
  /** Message index, or undefined for session-level text (title, compaction summaries). */
  message?: number;
  part?: number;
  /** `text`, `arguments`, `arguments.<json path>`, `content`, `title`, `compactions[i].summary`. */
  field: string;
}

/**
 * A copy of `session` with every secret replaced by `[REDACTED:<kind>]` in every part kind, plus a
 * report of what was redacted and where (never the secret: a fingerprint correlates duplicates).
 * Tool-call arguments that are JSON are redacted string by string and re-serialised, so they stay
 * valid JSON; other arguments are redacted as text.
 */
export function redactSession(session: Session, options: RedactOptions = {}): { session: Session; redactions: Redaction[] } {
  const redactions: Redaction[] = [];
  const redact = (text: string, where: Omit<Redaction, keyof SecretSpan>): string => {
    const spans = findSecrets(text, options);
    for (const span of spans) redactions.push({ ...where, ...span });
    return spans.length ? applySpans(text, spans) : text;
  };
  const messages = session.messages.map((message) => ({
    ...message,
    parts: message.parts.map((part, p) => redactPart(part, (text, field) => redact(text, { message: message.index, part: p, field }))),
  }));
  const compactions = session.compactions.map((c, i) =>
    c.summary === undefined ? c : { ...c, summary: redact(c.summary, { field: `compactions[${i}].summary` }) },
  );
  return { session: { ...session, title: redact(session.title, { field: "title" }), messages, compactions }, redactions };
}

type Redact = (text: string, field: string) => string;

function redactPart(part: Part, redact: Redact): Part {
  switch (part.type) {
    case "text":
    case "reasoning":
      return { ...part, text: redact(part.text, "text") };
    case "tool_call":
      return { ...part, arguments: redactArguments(part.arguments, redact) };
    case "tool_result":
      return { ...part, content: redact(part.content, "content") };
    case "other":
      return part.text === undefined ? part : { ...part, text: redact(part.text, "text") };
    default:
      return part;
  }
}

/** JSON arguments: each string value redacted in place (field `arguments.<path>`), JSON kept valid. */
function redactArguments(args: string, redact: Redact): string {
  let value: unknown;
  try {
    value = JSON.parse(args);
  } catch {
    return redact(args, "arguments");
  }
  if (typeof value !== "object" || value === null) return typeof value === "string" ? JSON.stringify(redact(value, "arguments")) : args;
  const walk = (node: unknown, path: string): unknown => {
    if (typeof node === "string") return redact(node, path);
    if (Array.isArray(node)) return node.map((v, i) => walk(v, `${path}[${i}]`));
    if (node && typeof node === "object") return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v, `${path}.${k}`)]));
    return node;
  };
  const redacted = walk(value, "arguments");
  return JSON.stringify(redacted) === JSON.stringify(value) ? args : JSON.stringify(redacted);
}
