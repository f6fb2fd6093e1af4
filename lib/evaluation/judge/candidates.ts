import type { DependencyKind } from "./types";

/**
 * Candidate values in a future assistant step, by kind. A candidate becomes a dependency only if
 * it also occurs in the prefix (checked by the caller with one automaton pass), so these rules
 * favour recall; the prefix check and the re-discovery rule supply precision.
 *
 * Edge cases pinned by tests: trailing sentence punctuation is not part of a URL, path or number;
 * dates, times, versions and `file:line` suffixes are not numbers; a path needs a letter and either
 * a root (`/`, `~/`, `./`), an extension or three segments (so "and/or" is not a path).
 */
export interface Candidate {
  kind: DependencyKind;
  value: string;
}

const URL_RE = /\bhttps?:\/\/[^\s"'<>()[\]`{}|\\^]+/g;
const PATH_RE = /(?<![\w/.@+~-])(?:~|\.{1,2})?\/?(?:[\w.@+-]+\/)+[\w.@+-]*[\w@+-]/g;
const UUID_RE = /\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b/g;
const WORD_TOKEN_RE = /(?<![\w-])[A-Za-z0-9][A-Za-z0-9_-]*[A-Za-z0-9](?![\w-])/g;
const NUMBER_RE = /(?<![\w.,/:$€£¥-])[-+]?[$€£¥]?\d[\d,]*(?:\.\d+)?%?(?![\w/:]|[.,-]\d)/g;
const IDENTIFIER_RE = /(?<![\w$])[A-Za-z_][A-Za-z0-9_]{5,}(?![\w$])/g;
const QUOTED_RES = [/"([^"\n]{12,300})"/g, /`([^`\n]{12,300})`/g, /(?<![A-Za-z])'([^'\n]{12,300})'(?![A-Za-z])/g, /“([^”\n]{12,300})”/g];

/** Minimum inner length of a quoted span; long shared spans use `MIN_SHARED_SPAN`. */
export const MIN_QUOTED_SPAN = 12;

/** With `locatorsOnly`, only urls, paths and ids are extracted (the live-state sibling scan). */
export function extractCandidates(text: string, push: (candidate: Candidate) => void, options: { locatorsOnly?: boolean } = {}): void {
  const urls: [number, number][] = [];
  for (const m of text.matchAll(URL_RE)) {
    push({ kind: "url", value: m[0].replace(/[.,;:!?]+$/, "") });
    urls.push([m.index, m[0].length]);
  }
  const withoutUrls = blank(text, urls);
  const paths: [number, number][] = [];
  for (const m of withoutUrls.matchAll(PATH_RE)) {
    const value = m[0].replace(/[.]+$/, "");
    if (!isPathLike(value)) continue;
    push({ kind: "path", value });
    paths.push([m.index, m[0].length]);
  }
  // Ids, numbers and identifiers inside a URL or path are part of that locator, not separate values.
  const masked = blank(withoutUrls, paths);
  for (const m of masked.matchAll(UUID_RE)) push({ kind: "id", value: m[0] });
  for (const m of masked.matchAll(WORD_TOKEN_RE)) if (isIdLike(m[0])) push({ kind: "id", value: m[0] });
  if (options.locatorsOnly) return;
  for (const m of masked.matchAll(NUMBER_RE)) {
    const value = m[0].replace(/[,]+$/, "");
    if (!isSignificantNumber(value)) continue;
    push({ kind: "number", value });
    // The same amount as a record or a JSON field writes it: "$2,787" is 2787 in the lookup result.
    const bare = value.replace(/[$€£¥,]/g, "");
    if (bare !== value && isSignificantNumber(bare)) push({ kind: "number", value: bare });
  }
  for (const m of masked.matchAll(IDENTIFIER_RE)) if (isCodeIdentifier(m[0])) push({ kind: "identifier", value: m[0] });
  for (const re of QUOTED_RES) {
    for (const m of text.matchAll(re)) {
      const value = m[1]!.trim();
      if (value.length >= MIN_QUOTED_SPAN && countAlnum(value) >= 6) push({ kind: "verbatim", value });
    }
  }
}

/** `text` with the given [start, length) ranges replaced by spaces, built in one pass. */
function blank(text: string, ranges: readonly [number, number][]): string {
  if (ranges.length === 0) return text;
  const pieces: string[] = [];
  let at = 0;
  for (const [start, length] of ranges) {
    pieces.push(text.slice(at, start), " ".repeat(length));
    at = start + length;
  }
  pieces.push(text.slice(at));
  return pieces.join("");
}

function isPathLike(value: string): boolean {
  if (value.length < 5 || !/[A-Za-z]/.test(value) || value.includes("//")) return false;
  const segments = value.split("/").filter(Boolean);
  if (segments.length < 2 && !/^(?:~|\.{1,2})?\//.test(value)) return false;
  const rooted = /^(?:~|\.{1,2})?\//.test(value);
  const hasExtension = /\.[A-Za-z0-9]{1,8}$/.test(segments.at(-1) ?? "");
  return (rooted && segments.length >= 2) || hasExtension || segments.length >= 3;
}

/** Ids mix letters and ≥ 3 digits (`JOB-14254`, `E-2194201`), or are hex runs of ≥ 7 with both. */
function isIdLike(value: string): boolean {
  if (value.length < 5 || !/[A-Za-z]/.test(value)) return false;
  if (/^[0-9a-f]{7,}$/.test(value)) return /\d/.test(value) && /[a-f]/.test(value);
  return countDigits(value) >= 3;
}

/**
 * ≥ 3 significant digits, or ≥ 2 with a currency sign, decimal point or percent. An integer's
 * trailing zeros are not significant: 500, 1000 and 3000 are round values an agent chooses or a
 * default sets, not evidence it could only have learned.
 */
function isSignificantNumber(value: string): boolean {
  const digits = value.replace(/[^\d.]/g, "");
  const significant = (digits.includes(".") ? digits.replace(".", "") : digits.replace(/0+$/, "")).replace(/^0+/, "").length;
  if (significant >= 3) return true;
  return significant >= 2 && /[$€£¥.%]/.test(value);
}

function isCodeIdentifier(value: string): boolean {
  if (countDigits(value) >= 3) return false;
  return /[a-z][A-Z]/.test(value) || /[A-Za-z0-9]_[A-Za-z0-9]/.test(value) || /^[A-Z][a-z0-9]+[A-Z]/.test(value);
}

function countDigits(value: string): number {
  let n = 0;
  for (let i = 0; i < value.length; i++) if (isDigit(value.charCodeAt(i))) n++;
  return n;
}

function countAlnum(value: string): number {
  let n = 0;
  for (let i = 0; i < value.length; i++) if (isWordCode(value.charCodeAt(i))) n++;
  return n;
}

const isDigit = (c: number) => c >= 48 && c <= 57;

/** [A-Za-z0-9_] */
export function isWordCode(c: number): boolean {
  return isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/**
 * Does an occurrence of a `kind` value at text[start, end) stand on its own? Token kinds must not
 * continue a longer word (`JOB-1425` inside `JOB-14254`); numbers must not be part of a longer
 * number (`623.00` inside `2,623.00`). Spans and constraint sentences match anywhere.
 */
export function isStandalone(text: string, start: number, end: number, kind: DependencyKind): boolean {
  if (kind === "verbatim" || kind === "constraint") return true;
  const before = start > 0 ? text.charCodeAt(start - 1) : -1;
  const after = end < text.length ? text.charCodeAt(end) : -1;
  if (isWordCode(text.charCodeAt(start)) && before >= 0 && isWordCode(before)) return false;
  if (isWordCode(text.charCodeAt(end - 1)) && after >= 0 && isWordCode(after)) return false;
  if (kind === "number") {
    const separator = (c: number) => c === 44 || c === 46;
    if (before >= 0 && separator(before) && start > 1 && isDigit(text.charCodeAt(start - 2))) return false;
    if (after >= 0 && separator(after) && end + 1 < text.length && isDigit(text.charCodeAt(end + 1))) return false;
    if (before >= 0 && isDigit(before)) return false;
  }
  return true;
}

/**
 * Looser than `isStandalone`, for re-discovery: the occurrence must not continue a longer word
 * (`JOB-1425` inside `JOB-14254` is not `JOB-1425`), but a number may sit inside a list, a range or
 * a diff header (`@@ -242,7 +242,7 @@`): the future did see it there before using it.
 */
export function isWordBounded(text: string, start: number, end: number): boolean {
  const before = start > 0 ? text.charCodeAt(start - 1) : -1;
  const after = end < text.length ? text.charCodeAt(end) : -1;
  if (isWordCode(text.charCodeAt(start)) && before >= 0 && isWordCode(before)) return false;
  if (isWordCode(text.charCodeAt(end - 1)) && after >= 0 && isWordCode(after)) return false;
  return true;
}
