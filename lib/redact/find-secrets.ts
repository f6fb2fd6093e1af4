import { sha256Hex } from "../util/sha256";
import type { AllowList } from "./allow-list";
import { RULES, type SecretKind } from "./rules";

/** Options for every redaction entry point (an admin's settings: see redactOptionsOf in options.ts). */
export interface RedactOptions {
  /** E-mail addresses are personal data rather than credentials: redacted only when asked. */
  emails?: boolean;
  /** Kinds not looked for at all (an admin's per-rule switches). */
  disabled?: readonly SecretKind[];
  /** Values that are never secrets (an admin's allow-list, compileAllowList): such a finding is dropped. */
  allow?: AllowList;
}

/** One secret found in a string: where it was (UTF-16 offsets into the original) and a fingerprint. */
export interface SecretSpan {
  kind: SecretKind;
  start: number;
  end: number;
  /** First 8 hex of sha256(secret): equal secrets correlate, the secret cannot be recovered. */
  fingerprint: string;
}

/**
 * Every secret in `text`, sorted and non-overlapping (an earlier rule wins an overlap, then the
 * longer span). PEM private keys are found first by a scan for their armour lines; the pattern
 * rules then run over the rest. Linear in `text` (see rules.ts).
 */
export function findSecrets(text: string, options: RedactOptions = {}): SecretSpan[] {
  const off = new Set(options.disabled ?? []);
  const allowed = (secret: string) => options.allow?.allows(secret) ?? false;
  const candidates: (SecretSpan & { priority: number })[] = off.has("private_key")
    ? []
    : findPemKeys(text)
        .filter((s) => !allowed(text.slice(s.start, s.end)))
        .map((s) => ({ ...s, priority: -1 }));
  RULES.forEach((rule, priority) => {
    if ((rule.kind === "email" && !options.emails) || off.has(rule.kind)) return;
    const pattern = new RegExp(rule.pattern);
    const groups = typeof rule.group === "number" ? [rule.group] : rule.group;
    for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
      const secret = groups.map((g) => match[g]).find((g) => g !== undefined);
      if (secret === undefined || (rule.accept && !rule.accept(secret, { match, text })) || allowed(secret)) continue;
      const start = match.index + match[0].lastIndexOf(secret);
      candidates.push({ kind: rule.kind, start, end: start + secret.length, fingerprint: fingerprint(secret), priority });
    }
  });
  candidates.sort((a, b) => a.start - b.start || a.priority - b.priority || b.end - a.end);
  const kept: SecretSpan[] = [];
  for (const { priority: _priority, ...span } of candidates) {
    const last = kept[kept.length - 1];
    if (last && span.start < last.end) continue;
    kept.push(span);
  }
  return kept;
}

/** The replacement that stands in for a secret: a shape hint, never the value. */
export function placeholder(kind: SecretKind): string {
  return `[REDACTED:${kind}]`;
}

/** Replaces each span of `text` by its placeholder. */
export function applySpans(text: string, spans: readonly SecretSpan[]): string {
  let out = "";
  let at = 0;
  for (const span of spans) {
    out += text.slice(at, span.start) + placeholder(span.kind);
    at = span.end;
  }
  return out + text.slice(at);
}

export function fingerprint(secret: string): string {
  return sha256Hex(secret).slice(0, 8);
}

const PEM_BEGIN = /-----BEGIN[A-Z0-9 ]{0,40} PRIVATE KEY-----/g;

/**
 * The body of an unterminated key: base64, header punctuation, whitespace (newlines included) and
 * the `\n` / `\r` escapes a key has inside a JSON string. It stops at anything else (the string's
 * closing quote), so a truncated key in a JSON line is redacted without eating the JSON around it.
 */
const PEM_BODY = /(?:[A-Za-z0-9+/=:,. \t\r\n-]|\\[nr])*/y;

/**
 * PEM private key blocks, armour included, raw or inside a JSON string (`\n` escapes). An
 * unterminated block runs over its body (PEM_BODY): to the end of raw text, or to the end of the
 * JSON string that holds it.
 */
function findPemKeys(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  const begin = new RegExp(PEM_BEGIN);
  // The next END marker is searched again only once a block has passed it: linear even for
  // thousands of unterminated BEGIN lines.
  let endMarker = -2;
  for (let match = begin.exec(text); match; match = begin.exec(text)) {
    const from = match.index + match[0].length;
    if (endMarker === -2 || (endMarker !== -1 && endMarker < from)) endMarker = text.indexOf("-----END", from);
    const close = endMarker === -1 ? -1 : text.indexOf("-----", endMarker + 8);
    const end = close === -1 ? bodyEnd(text, from) : close + 5;
    spans.push({ kind: "private_key", start: match.index, end, fingerprint: fingerprint(text.slice(match.index, end)) });
    begin.lastIndex = end;
  }
  return spans;
}

function bodyEnd(text: string, from: number): number {
  const body = new RegExp(PEM_BODY);
  body.lastIndex = from;
  body.exec(text);
  return body.lastIndex === 0 ? from : body.lastIndex;
}
