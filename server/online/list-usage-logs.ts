import type { Db } from "../db/client";
import { toSummary, type UsageLogSummary } from "./online-report";

/** Uploaded usage logs, newest first, with their row and slot counts (never their rows). */
export async function listUsageLogs(db: Db): Promise<UsageLogSummary[]> {
  const rows = await db.usageLog.findMany({ orderBy: { createdAt: "desc" }, take: 200 });
  return rows.map(toSummary);
}
