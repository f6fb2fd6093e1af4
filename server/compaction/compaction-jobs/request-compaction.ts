import { policyNeedsLlm } from "@/lib/compaction/policies/needs-llm";
import type { Db } from "../../db/client";
import type { JobQueue } from "../../jobs/job-queue";
import { hasLlmEndpoint } from "../../llm/effective-config";
import type { BlobStore } from "../../storage/blob-store";
import { compactSession } from "../compact-session";
import type { CompactData, CompactErrorCode, CompactRequest } from "../compaction-api";
import { queueCompactionJob } from "./queue-compaction-job";

export type RequestCompactionOutcome =
  { kind: "done"; data: CompactData } | { kind: "queued"; jobId: string } | { kind: "refused"; code: CompactErrorCode; message: string };

/**
 * What `POST /api/sessions/[id]/compact` does with a valid body. A run that calls the LLM
 * (lib/compaction/policies/needs-llm.ts) while an endpoint is configured becomes a CompactionJob a worker
 * executes — after the checks that can be answered at once (the session exists, the cut is in
 * range) — because a model call can outlast the request. Everything else runs here,
 * synchronously, exactly as before: rule-based policies, bad parameters, and planner=llm without
 * an endpoint, which fails at once with its planner_unavailable message.
 */
export async function requestCompaction(
  db: Db,
  store: BlobStore,
  queue: () => JobQueue,
  input: { sessionId: string; request: CompactRequest; userId?: string | undefined },
): Promise<RequestCompactionOutcome> {
  const { sessionId, request } = input;
  if (!policyNeedsLlm(request.policy, request.params ?? {}) || !(await hasLlmEndpoint(db))) {
    const outcome = await compactSession(db, store, { sessionId, ...request });
    return outcome.ok ? { kind: "done", data: outcome.data } : { kind: "refused", code: outcome.code, message: outcome.message };
  }
  const session = await db.traceSession.findUnique({ where: { id: sessionId }, select: { messageCount: true } });
  if (!session) return { kind: "refused", code: "not_found", message: "no such session" };
  if (request.cut !== undefined && request.cut > session.messageCount) {
    return { kind: "refused", code: "invalid_request", message: `cut must be between 1 and ${session.messageCount}` };
  }
  return { kind: "queued", jobId: await queueCompactionJob(db, queue(), input) };
}
