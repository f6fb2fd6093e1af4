import { partText } from "@/lib/tokens/message-tokens";
import type { Db } from "../../db/client";
import { insensitive } from "../../db/insensitive";
import { parseParts } from "./message-view";
import type { SearchHit, SearchResult } from "./types";

export const MAX_SEARCH_HITS = 1000;
/** Rows read per query while scanning; bounds memory on sessions of tens of thousands of messages. */
const SCAN_BATCH = 500;
/** Shortest query fragment worth a SQL prefilter (shorter ones match nearly every row anyway). */
const MIN_PREFILTER = 2;
const SNIPPET_BEFORE = 60;
const SNIPPET_AFTER = 110;

/** Queries shaped like object ids: `function:read:3`, `function:bash`, `conversation:user:`. */
const OBJECT_QUERY = /^(conversation|function):\S*$/i;

/**
 * Searches one session. A query shaped like an object id jumps to that object (exact id), or lists
 * the objects whose id starts with it; otherwise it is a case-insensitive text search over what the
 * model reads of each part (text, reasoning, tool name + arguments, tool output), one hit per
 * message in message order. Null when the session does not exist.
 *
 * The text search is a linear scan done in SQL where it can be: `parts` is JSON text, so a
 * `contains` (LIKE on SQLite, ILIKE on PostgreSQL) on the longest fragment of the query that JSON
 * and LIKE leave untouched (printable ASCII without `"` `\` `%` `_`) narrows the rows, and every
 * candidate is then checked against the decoded part text — so JSON keys, escapes and LIKE
 * wildcards never produce false hits.
 */
export async function searchSession(db: Db, sessionId: string, rawQuery: string, options: { limit?: number } = {}): Promise<SearchResult | null> {
  const session = await db.traceSession.findUnique({ where: { id: sessionId }, select: { id: true } });
  if (!session) return null;
  const query = rawQuery.trim();
  const limit = Math.max(1, Math.min(options.limit ?? MAX_SEARCH_HITS, MAX_SEARCH_HITS));
  if (query.length === 0) return { query, mode: "text", hits: [], truncated: false };
  if (OBJECT_QUERY.test(query)) {
    const objects = await searchObjects(db, sessionId, query, limit);
    if (objects.hits.length > 0) return { query, mode: "object", ...objects };
  }
  return { query, mode: "text", ...(await searchText(db, sessionId, query, limit)) };
}

async function searchObjects(db: Db, sessionId: string, query: string, limit: number): Promise<{ hits: SearchHit[]; truncated: boolean }> {
  const select = { objectId: true, kind: true, tool: true, tokens: true, firstMessage: true, partMessage: true, partIndex: true } as const;
  const exact = await db.contextObjectRow.findUnique({ where: { sessionId_objectId: { sessionId, objectId: query } }, select });
  if (exact) return { hits: [toObjectHit(exact)], truncated: false };
  const needle = query.toLowerCase();
  const rows = await db.contextObjectRow.findMany({
    where: { sessionId, objectId: { startsWith: likeSafePrefix(query), ...insensitive(db) } },
    select,
    orderBy: [{ firstMessage: "asc" }, { partIndex: "asc" }],
  });
  const matching = rows.filter((r) => r.objectId.toLowerCase().startsWith(needle));
  return { hits: matching.slice(0, limit).map(toObjectHit), truncated: matching.length > limit };
}

function toObjectHit(o: {
  objectId: string;
  kind: string;
  tool: string | null;
  tokens: number;
  firstMessage: number;
  partMessage: number | null;
  partIndex: number | null;
}): SearchHit {
  return {
    message: o.partMessage ?? o.firstMessage,
    ...(o.partIndex !== null ? { part: o.partIndex } : {}),
    objectId: o.objectId,
    snippet: `${o.objectId} · ${o.tokens.toLocaleString("en-US")} tokens`,
  };
}

async function searchText(db: Db, sessionId: string, query: string, limit: number): Promise<{ hits: SearchHit[]; truncated: boolean }> {
  const needle = query.toLowerCase();
  const fragment = longestLikeSafeFragment(query);
  const prefilter = fragment.length >= MIN_PREFILTER ? { parts: { contains: fragment, ...insensitive(db) } } : {};
  const hits: SearchHit[] = [];
  let cursor = 0;
  for (;;) {
    const rows = await db.traceMessage.findMany({
      where: { sessionId, index: { gte: cursor }, ...prefilter },
      select: { index: true, parts: true },
      orderBy: { index: "asc" },
      take: SCAN_BATCH,
    });
    for (const row of rows) {
      const hit = matchMessage(row.index, row.parts, needle);
      if (!hit) continue;
      if (hits.length === limit) return { hits, truncated: true };
      hits.push(hit);
    }
    if (rows.length < SCAN_BATCH) return { hits, truncated: false };
    cursor = rows[rows.length - 1]!.index + 1;
  }
}

function matchMessage(message: number, partsJson: string, needle: string): SearchHit | undefined {
  const parts = parseParts(partsJson);
  for (let p = 0; p < parts.length; p++) {
    const text = partText(parts[p]!);
    const at = text.toLowerCase().indexOf(needle);
    if (at !== -1) return { message, part: p, snippet: snippetAround(text, at, needle.length) };
  }
  return undefined;
}

/** Text around a match, whitespace collapsed, with ellipses where it was cut. */
export function snippetAround(text: string, at: number, length: number): string {
  const start = Math.max(0, at - SNIPPET_BEFORE);
  const end = Math.min(text.length, at + length + SNIPPET_AFTER);
  const body = text.slice(start, end).replace(/\s+/g, " ").trim();
  return `${start > 0 ? "…" : ""}${body}${end < text.length ? "…" : ""}`;
}

/** The longest run of the query that JSON encodes as itself and LIKE reads literally. */
export function longestLikeSafeFragment(query: string): string {
  return query.split(/[^\x20-\x7e]|["\\%_]/).reduce((best, run) => (run.length > best.length ? run : best), "");
}

/** The query up to its first LIKE wildcard (the rest is checked in JavaScript). */
function likeSafePrefix(query: string): string {
  const cut = query.search(/[%_\\]/);
  return cut === -1 ? query : query.slice(0, cut);
}
