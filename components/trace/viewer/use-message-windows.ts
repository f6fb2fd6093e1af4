"use client";

import { useCallback, useRef, useState } from "react";
import type { MessageResponse, MessageWindowResponse } from "@/server/trace/session/session-api";
import type { MessageView } from "@/server/trace/session/types";

/** Messages per request: a screenful or two of rows. */
export const CHUNK_SIZE = 50;
/** Chunks kept in memory; the ones farthest from what is on screen are dropped first. */
const MAX_CHUNKS = 60;
/** Requests in flight at once; while the user drags the scrollbar, chunks scrolled past are skipped. */
const MAX_IN_FLIGHT = 2;

export type MessageSlot = { status: "loading" } | { status: "ready"; message: MessageView; full: boolean } | { status: "error"; error: string };

type Chunk = { status: "loading" } | { status: "ready"; messages: MessageView[] } | { status: "error"; error: string };

/**
 * Fetches message windows on demand and caches them by chunk. `want(first, last)` says what is on
 * screen; chunks load nearest-first, at most MAX_IN_FLIGHT at a time, and only for the latest
 * wanted range. `loadFull(i)` fetches one message in full (for "show all"). Mount one per session
 * (key the owner by session id): the cache is not reset when `sessionId` changes.
 */
export function useMessageWindows(sessionId: string, messageCount: number) {
  const chunks = useRef(new Map<number, Chunk>());
  const full = useRef(new Map<number, MessageView>());
  const wanted = useRef<{ first: number; last: number }>({ first: 0, last: -1 });
  const inFlight = useRef(0);
  const [version, setVersion] = useState(0);
  const bump = useCallback(() => setVersion((v) => v + 1), []);
  const chunkCount = Math.ceil(messageCount / CHUNK_SIZE);

  const pump = useCallback(() => {
    const { first, last } = wanted.current;
    if (last < first) return;
    const lo = Math.floor(first / CHUNK_SIZE);
    const hi = Math.min(chunkCount - 1, Math.floor(last / CHUNK_SIZE));
    const centre = (lo + hi) / 2;
    const missing: number[] = [];
    for (let c = lo; c <= hi; c++) if (!chunks.current.has(c)) missing.push(c);
    missing.sort((a, b) => Math.abs(a - centre) - Math.abs(b - centre));
    for (const c of missing) {
      if (inFlight.current >= MAX_IN_FLIGHT) break;
      inFlight.current++;
      chunks.current.set(c, { status: "loading" });
      void fetchChunk(sessionId, c, messageCount).then((chunk) => {
        inFlight.current--;
        chunks.current.set(c, chunk);
        evictFarChunks(chunks.current, lo, hi);
        bump();
        pump();
      });
    }
  }, [sessionId, messageCount, chunkCount, bump]);

  const want = useCallback(
    (first: number, last: number) => {
      wanted.current = { first, last };
      pump();
    },
    [pump],
  );

  const slot = useCallback((index: number): MessageSlot => {
    const whole = full.current.get(index);
    if (whole) return { status: "ready", message: whole, full: true };
    const chunk = chunks.current.get(Math.floor(index / CHUNK_SIZE));
    if (!chunk || chunk.status === "loading") return { status: "loading" };
    if (chunk.status === "error") return chunk;
    const message = chunk.messages[index % CHUNK_SIZE];
    return message ? { status: "ready", message, full: false } : { status: "error", error: "message missing from the response" };
  }, []);

  const retry = useCallback(
    (index: number) => {
      chunks.current.delete(Math.floor(index / CHUNK_SIZE));
      bump();
      pump();
    },
    [bump, pump],
  );

  const loadFull = useCallback(
    async (index: number): Promise<void> => {
      if (full.current.has(index)) return;
      const body = await getJson<MessageResponse>(`/api/sessions/${encodeURIComponent(sessionId)}/messages/${index}`);
      if (!body.ok) throw new Error(body.message);
      full.current.set(index, body.data);
      bump();
    },
    [sessionId, bump],
  );

  return { version, want, slot, retry, loadFull };
}

async function fetchChunk(sessionId: string, chunk: number, messageCount: number): Promise<Chunk> {
  const from = chunk * CHUNK_SIZE;
  const to = Math.min(messageCount, from + CHUNK_SIZE);
  try {
    const body = await getJson<MessageWindowResponse>(`/api/sessions/${encodeURIComponent(sessionId)}/messages?from=${from}&to=${to}`);
    return body.ok ? { status: "ready", messages: body.data.messages } : { status: "error", error: body.message };
  } catch (error) {
    return { status: "error", error: error instanceof Error ? error.message : String(error) };
  }
}

/** GET a JSON body; non-JSON failures (a proxy's HTML error page) become an error body. */
export async function getJson<T extends { ok: boolean }>(url: string): Promise<T> {
  const response = await fetch(url, { headers: { accept: "application/json" }, cache: "no-store" });
  const type = response.headers.get("content-type") ?? "";
  if (!type.includes("application/json")) {
    return { ok: false, code: "internal", message: `the server answered ${response.status} ${response.statusText}` } as unknown as T;
  }
  return (await response.json()) as T;
}

function evictFarChunks(chunks: Map<number, Chunk>, lo: number, hi: number): void {
  if (chunks.size <= MAX_CHUNKS) return;
  const distance = (c: number) => (c < lo ? lo - c : c > hi ? c - hi : 0);
  const candidates = [...chunks.entries()].filter(([, chunk]) => chunk.status !== "loading").map(([c]) => c);
  candidates.sort((a, b) => distance(b) - distance(a));
  for (const c of candidates.slice(0, chunks.size - MAX_CHUNKS)) chunks.delete(c);
}
