"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { MessageResponse, MessageWindowResponse } from "@/server/trace/session/session-api";
import type { MessageView } from "@/server/trace/session/types";

/** Messages per request. */
const CHUNK = 50;
const MAX_IN_FLIGHT = 2;

export type OriginalSlot = MessageView | "loading" | { error: string };
type Chunk = "loading" | MessageView[] | { error: string };

/**
 * The original prefix, fetched by window from `/api/sessions/[id]/messages` only where rows are on
 * screen (`want(first, last)`), nearest chunks first. `slot(i)` is stable per message (memoised rows
 * re-render only when their own message arrives); `loadFull(i)` fetches a message in full for
 * "show all" and `fullPart(i, p)` reads it back.
 */
export function usePrefixWindows(sessionId: string, count: number) {
  const chunks = useRef(new Map<number, Chunk>());
  const full = useRef(new Map<number, MessageView>());
  const wanted = useRef({ first: 0, last: -1 });
  const inFlight = useRef(0);
  const [version, setVersion] = useState(0);
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const pump = useCallback(() => {
    const { first, last } = wanted.current;
    const lo = Math.floor(Math.max(0, first) / CHUNK);
    const hi = Math.floor(Math.min(count - 1, last) / CHUNK);
    const missing: number[] = [];
    for (let c = lo; c <= hi; c++) if (!chunks.current.has(c)) missing.push(c);
    const centre = (lo + hi) / 2;
    missing.sort((a, b) => Math.abs(a - centre) - Math.abs(b - centre));
    for (const c of missing) {
      if (inFlight.current >= MAX_IN_FLIGHT) break;
      inFlight.current++;
      chunks.current.set(c, "loading");
      void fetchChunk(sessionId, c, count).then((chunk) => {
        inFlight.current--;
        chunks.current.set(c, chunk);
        if (!alive.current) return;
        setVersion((v) => v + 1);
        pump();
      });
    }
  }, [sessionId, count]);

  const want = useCallback(
    (first: number, last: number) => {
      wanted.current = { first, last };
      pump();
    },
    [pump],
  );

  const slot = useCallback((index: number): OriginalSlot => {
    const chunk = chunks.current.get(Math.floor(index / CHUNK));
    if (!chunk || chunk === "loading") return "loading";
    if (!Array.isArray(chunk)) return chunk;
    return chunk[index % CHUNK] ?? { error: "message missing from the response" };
  }, []);

  const retry = useCallback(
    (index: number) => {
      chunks.current.delete(Math.floor(index / CHUNK));
      setVersion((v) => v + 1);
      pump();
    },
    [pump],
  );

  const loadFull = useCallback(
    async (index: number): Promise<MessageView> => {
      const cached = full.current.get(index);
      if (cached) return cached;
      const body = await getJson<MessageResponse>(`/api/sessions/${encodeURIComponent(sessionId)}/messages/${index}`);
      if (!body.ok) throw new Error(body.message);
      full.current.set(index, body.data);
      return body.data;
    },
    [sessionId],
  );

  return { version, want, slot, retry, loadFull };
}

export type PrefixWindows = ReturnType<typeof usePrefixWindows>;

async function fetchChunk(sessionId: string, chunk: number, count: number): Promise<Chunk> {
  const from = chunk * CHUNK;
  const to = Math.min(count, from + CHUNK);
  try {
    const body = await getJson<MessageWindowResponse>(`/api/sessions/${encodeURIComponent(sessionId)}/messages?from=${from}&to=${to}`);
    return body.ok ? body.data.messages : { error: body.message };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

async function getJson<T extends { ok: boolean }>(url: string): Promise<T> {
  const response = await fetch(url, { headers: { accept: "application/json" }, cache: "no-store" });
  if (!(response.headers.get("content-type") ?? "").includes("application/json")) {
    return { ok: false, code: "internal", message: `the server answered ${response.status} ${response.statusText}` } as unknown as T;
  }
  return (await response.json()) as T;
}
