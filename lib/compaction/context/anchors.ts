/**
 * Anchors: the concrete, checkable things inside an object that a future step may need verbatim
 * (seed 000: "exact URLs, paths, row values, task identifiers"). Policies use them to decide what
 * is still live; the dependency judge uses them to decide what the future actually used.
 */
export type AnchorKind = "url" | "path" | "id" | "number";

export interface Anchor {
  kind: AnchorKind;
  value: string;
}

/** Cap per object: a 1 MB log has thousands of numbers; the first ones are representative. */
export const MAX_ANCHORS_PER_OBJECT = 200;

const URL_RE = /\bhttps?:\/\/[^\s"'<>()\]\[`{}|\\^]+/g;
const PATH_RE = /(?:^|[\s"'`(=:])((?:~|\.{1,2})?\/(?:[\w.@+-]+\/)*[\w.@+-]+\.?[\w-]*|[\w.-]+\/(?:[\w.-]+\/)*[\w-]+\.[A-Za-z0-9]{1,6})(?=$|[\s"'`),:;\]])/g;
const ID_RE =
  /\b(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{7,40}|[A-Za-z]{2,}[-_][A-Za-z0-9]*\d[A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)*|(?:call|toolu|msg|req|job|run|task)_[A-Za-z0-9]+)\b/g;
const NUMBER_RE = /(?:[$€£¥]\s?)?\b\d{1,3}(?:,\d{3})+(?:\.\d+)?\b|(?:[$€£¥]\s?)?\b\d+\.\d+\b|\b\d{4,}\b/g;

/** Extracts de-duplicated anchors in order of first appearance. */
export function extractAnchors(text: string, limit = MAX_ANCHORS_PER_OBJECT): Anchor[] {
  const seen = new Set<string>();
  const anchors: Anchor[] = [];
  const push = (kind: AnchorKind, raw: string) => {
    const value = raw.replace(/[.,;:]+$/, "");
    if (value.length < 3 || seen.has(value) || anchors.length >= limit) return;
    seen.add(value);
    anchors.push({ kind, value });
  };
  for (const m of text.matchAll(URL_RE)) push("url", m[0]);
  for (const m of text.matchAll(PATH_RE)) if (m[1] && !m[1].startsWith("//") && !seen.has(m[1])) push("path", m[1]);
  for (const m of text.matchAll(ID_RE)) if (isIdLike(m[0])) push("id", m[0]);
  for (const m of text.matchAll(NUMBER_RE)) push("number", m[0]);
  return anchors;
}

/** Hex runs must mix digits and letters, so plain words ("deadbeef" aside) are not ids. */
function isIdLike(value: string): boolean {
  if (/^[0-9a-f]+$/.test(value)) return /\d/.test(value) && /[a-f]/.test(value);
  return true;
}
