import type { Db } from "../../db/client";

type Reader = Pick<Db, "evalRun" | "compactionJob">;

/** What keeps a session from being deleted now: a queued or running evaluation that reads it, or a compaction job on it. */
export interface BusyReason {
  sessionId: string;
  reason: string;
}

/**
 * Sessions among `sessionIds` a queued or running job still reads (issue 15, item 7: "nothing
 * referenced by a running job is deleted under it"). A finished, cancelled or failed run does not
 * hold its sessions: its stored results stay, marked on the run page once their session is gone.
 */
export async function busySessions(db: Reader, sessionIds: readonly string[]): Promise<BusyReason[]> {
  if (sessionIds.length === 0) return [];
  const wanted = new Set(sessionIds);
  const busy = new Map<string, string>();
  const runs = await db.evalRun.findMany({
    where: { status: { in: ["queued", "running"] } },
    select: { id: true, name: true, status: true, sessionIds: true },
  });
  for (const run of runs) {
    for (const id of parseIds(run.sessionIds))
      if (wanted.has(id) && !busy.has(id)) busy.set(id, `evaluation run "${run.name}" (${run.id}) is ${run.status} and reads it`);
  }
  const jobs = await db.compactionJob.findMany({
    where: { status: { in: ["queued", "running"] }, sessionId: { in: [...wanted] } },
    select: { id: true, sessionId: true, policy: true, status: true },
  });
  for (const job of jobs) if (!busy.has(job.sessionId)) busy.set(job.sessionId, `a ${job.policy} compaction job (${job.id}) is ${job.status} on it`);
  return [...busy].map(([sessionId, reason]) => ({ sessionId, reason }));
}

function parseIds(text: string): string[] {
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}
