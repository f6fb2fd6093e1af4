"use client";

import { useCallback, useRef, useState } from "react";
import type { CompactData, CompactJobResponse, CompactRequest, CompactResponse } from "@/server/compaction/compaction-api";
import { pollCompactionJob, type JobProgress } from "./poll-compaction-job";

export type RunState =
  | { status: "idle" }
  | { status: "running"; request: CompactRequest; startedAt: number; previous?: CompactData; job?: JobProgress }
  | { status: "done"; request: CompactRequest; data: CompactData }
  | { status: "error"; request: CompactRequest; code: string; message: string; previous?: CompactData };

export function dataOf(state: RunState): CompactData | undefined {
  return state.status === "done" ? state.data : state.status === "idle" ? undefined : state.previous;
}

/**
 * One policy run against `POST /api/sessions/[id]/compact`. A new run aborts the one in flight;
 * while running (or after an error) the previous result stays available to show, dimmed. A run that
 * calls the LLM is answered 202 with a job id: the hook then polls the job (state.job says queued
 * or running) until it ends, and shows its result or error exactly as a synchronous answer's.
 */
export function useCompactionRun(sessionId: string) {
  const [state, setState] = useState<RunState>({ status: "idle" });
  // Not aborted on unmount: React's development double mount would cancel the first run of a
  // shared link; a late answer for an unmounted page is simply dropped.
  const controller = useRef<AbortController | null>(null);

  const run = useCallback(
    async (request: CompactRequest) => {
      controller.current?.abort();
      const mine = new AbortController();
      controller.current = mine;
      setState((s) => {
        const previous = dataOf(s);
        return { status: "running", request, startedAt: Date.now(), ...(previous ? { previous } : {}) };
      });
      let body: CompactResponse;
      try {
        const response = await fetch(`/api/sessions/${encodeURIComponent(sessionId)}/compact`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify(request),
          signal: mine.signal,
          cache: "no-store",
        });
        const answer = (response.headers.get("content-type") ?? "").includes("application/json")
          ? ((await response.json()) as CompactResponse | CompactJobResponse)
          : ({ ok: false, code: "internal", message: `the server answered ${response.status} ${response.statusText}` } satisfies CompactResponse);
        body =
          "jobId" in answer
            ? await pollCompactionJob(sessionId, answer.jobId, mine.signal, (job) =>
                setState((s) => (s.status === "running" && s.request === request ? { ...s, job } : s)),
              )
            : answer;
      } catch (error) {
        if (mine.signal.aborted) return;
        body = { ok: false, code: "internal", message: `the request failed: ${error instanceof Error ? error.message : String(error)}` };
      }
      if (mine.signal.aborted) return;
      controller.current = null;
      setState((s) => {
        if (body.ok) return { status: "done", request, data: body.data };
        const previous = dataOf(s);
        return { status: "error", request, code: body.code, message: body.message, ...(previous ? { previous } : {}) };
      });
    },
    [sessionId],
  );

  /**
   * Stops waiting for a queued compaction (the page's Cancel): the poll ends and the run shows as
   * cancelled, with the previous result kept. The worker may still finish the job; Retry queues a new one.
   */
  const cancel = useCallback(() => {
    if (!controller.current) return;
    controller.current.abort();
    controller.current = null;
    setState((s) => {
      if (s.status !== "running") return s;
      const waited = s.job ? ` for job ${s.job.jobId}` : "";
      return {
        status: "error",
        request: s.request,
        code: "cancelled",
        message: `you stopped waiting${waited}`,
        ...(s.previous ? { previous: s.previous } : {}),
      };
    });
  }, []);

  /** Forgets the result (and aborts a run in flight). */
  const reset = useCallback(() => {
    controller.current?.abort();
    controller.current = null;
    setState({ status: "idle" });
  }, []);

  return { state, run, cancel, reset, setState };
}
