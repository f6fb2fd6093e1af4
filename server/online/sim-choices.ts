import { POLICIES } from "@/lib/compaction/policies/registry";
import type { Db } from "../db/client";

/** Sessions offered one by one in the simulator's picker; the rest stay reachable through *All* or a format. */
export const PICKABLE_SESSIONS = 500;

export interface SimChoices {
  policies: { id: string; family: string }[];
  formats: { format: string; sessions: number }[];
  sessions: { id: string; title: string; format: string; messages: number }[];
  totalSessions: number;
  /** Stored sessions that carry provider usage (what *Use usage from uploaded traces* reads). */
  sessionsWithUsage: number;
}

/** What the *Simulate from traces* and *Use usage from uploaded traces* panels offer: counts and names, never content. */
export async function listSimChoices(db: Db): Promise<SimChoices> {
  const [formats, sessions, totalSessions, sessionsWithUsage] = await Promise.all([
    db.traceSession.groupBy({ by: ["format"], _count: { _all: true }, orderBy: { format: "asc" } }),
    db.traceSession.findMany({
      select: { id: true, title: true, format: true, messageCount: true },
      orderBy: [{ createdAt: "desc" }, { uploadId: "asc" }, { ordinal: "asc" }],
      take: PICKABLE_SESSIONS,
    }),
    db.traceSession.count(),
    db.traceSession.count({ where: { providerInputTokens: { not: null } } }),
  ]);
  return {
    policies: POLICIES.map((p) => ({ id: p.id, family: p.family })),
    formats: formats.map((f) => ({ format: f.format, sessions: f._count._all })),
    sessions: sessions.map((s) => ({ id: s.id, title: s.title, format: s.format, messages: s.messageCount })),
    totalSessions,
    sessionsWithUsage,
  };
}
