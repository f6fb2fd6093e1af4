"use client";

import { useCallback, useRef, useState } from "react";
import type { SearchResponse } from "@/server/trace/session/session-api";
import type { SearchHit, SearchResult } from "@/server/trace/session/types";
import { getJson } from "./use-message-windows";

export type SearchState =
  { status: "idle" } | { status: "loading" } | { status: "error"; error: string } | { status: "done"; result: SearchResult; position: number };

/**
 * Search as in an editor: Enter runs the query (or moves to the next hit when it already ran),
 * Shift+Enter moves back; both wrap. The first hit is the first one at or after the message the
 * reader is on. `onHit` scrolls the timeline.
 */
export function useSessionSearch(sessionId: string, options: { currentMessage(): number; onHit(hit: SearchHit, result: SearchResult): void }) {
  const [query, setQueryState] = useState("");
  const [state, setState] = useState<SearchState>({ status: "idle" });
  const request = useRef(0);
  const { currentMessage, onHit } = options;

  const setQuery = useCallback((value: string) => {
    setQueryState(value);
    setState((previous) => (previous.status === "done" && previous.result.query === value.trim() ? previous : { status: "idle" }));
  }, []);

  const go = useCallback(
    (result: SearchResult, position: number) => {
      setState({ status: "done", result, position });
      const hit = result.hits[position];
      if (hit) onHit(hit, result);
    },
    [onHit],
  );

  const submit = useCallback(
    async (direction: 1 | -1, override?: string) => {
      const q = (override ?? query).trim();
      if (!q) return;
      if (override === undefined && state.status === "done" && state.result.query === q) {
        const count = state.result.hits.length;
        if (count > 0) go(state.result, (state.position + direction + count) % count);
        return;
      }
      const id = ++request.current;
      setState({ status: "loading" });
      const body = await getJson<SearchResponse>(`/api/sessions/${encodeURIComponent(sessionId)}/search?q=${encodeURIComponent(q)}`).catch(
        (error: unknown): SearchResponse => ({ ok: false, code: "internal", message: error instanceof Error ? error.message : String(error) }),
      );
      if (id !== request.current) return;
      if (!body.ok) {
        setState({ status: "error", error: body.message });
        return;
      }
      const here = currentMessage();
      const hits = body.data.hits;
      let position = direction === 1 ? hits.findIndex((h) => h.message >= here) : findLastIndex(hits, (h) => h.message <= here);
      if (position === -1) position = direction === 1 ? 0 : hits.length - 1;
      go(body.data, Math.max(0, position));
    },
    [query, state, sessionId, currentMessage, go],
  );

  const clear = useCallback(() => {
    request.current++;
    setQueryState("");
    setState({ status: "idle" });
  }, []);

  return { query, setQuery, state, submit, clear };
}

function findLastIndex<T>(items: T[], predicate: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (predicate(items[i]!)) return i;
  return -1;
}
