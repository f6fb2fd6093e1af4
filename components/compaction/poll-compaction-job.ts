import type { CompactErrorCode, CompactJobResponse, CompactResponse } from "@/server/compaction/compaction-api";

/** A queued compaction as the page shows it while waiting. */
export interface JobProgress {
  jobId: string;
  status: "queued" | "running";
  attempts: number;
}

/** How often the page asks for a queued compaction's state. */
export const JOB_POLL_MS = 1_000;

/**
 * Polls `GET /api/sessions/[id]/compact/jobs/[jobId]` until the job is done or failed, reporting
 * each intermediate state, and returns the answer in the synchronous route's shape, so the page
 * shows a job's result or error exactly as an immediate one. Aborting `signal` stops the poll (the
 * promise rejects with the abort); a failed poll request ends it with an `internal` error.
 */
export async function pollCompactionJob(
  sessionId: string,
  jobId: string,
  signal: AbortSignal,
  onProgress: (job: JobProgress) => void,
  intervalMs = JOB_POLL_MS,
): Promise<CompactResponse> {
  const url = `/api/sessions/${encodeURIComponent(sessionId)}/compact/jobs/${encodeURIComponent(jobId)}`;
  onProgress({ jobId, status: "queued", attempts: 0 });
  for (;;) {
    await sleep(intervalMs, signal);
    const response = await fetch(url, { headers: { accept: "application/json" }, signal, cache: "no-store" });
    if (!(response.headers.get("content-type") ?? "").includes("application/json")) {
      return { ok: false, code: "internal", message: `polling compaction job ${jobId}: the server answered ${response.status} ${response.statusText}` };
    }
    const body = (await response.json()) as CompactJobResponse | { ok: false; code: CompactErrorCode; message: string };
    if (!("status" in body)) return { ok: false, code: body.code, message: `polling compaction job ${jobId}: ${body.message}` };
    if (body.status === "done") return { ok: true, data: body.data };
    if (body.status === "failed") return { ok: false, code: body.code, message: body.message };
    onProgress({ jobId, status: body.status, attempts: body.attempts });
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
