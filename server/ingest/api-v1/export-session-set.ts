import { toOtlpJson } from "../../../lib/trace/export-otlp-json";
import { toTracefoldJsonl } from "../../../lib/trace/export-tracefold-jsonl";
import type { Db } from "../../db/client";
import { loadStoredSession } from "../../trace/session/load-analyzed-session";
import type { SessionExportFormat } from "./export-session";
import { sessionFilterWhere } from "./list-sessions-page";
import { SESSION_EXPORT_MAX, type SessionSetExportQuery } from "./schemas";

export type SessionSetSelection = { ok: true; ids: string[] } | { ok: false; status: 400 | 404; code: string; message: string };

/**
 * The sessions a set export holds, in the list's order (newest first): the given ids — every one
 * must exist, so an export never silently drops a row the user saw — or every session the filters
 * match, at most SESSION_EXPORT_MAX (more is refused with the count, not cut short).
 */
export async function selectExportSessions(db: Db, query: SessionSetExportQuery): Promise<SessionSetSelection> {
  if (query.ids) {
    const found = await db.traceSession.findMany({ where: { id: { in: query.ids } }, select: { id: true }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
    const known = new Set(found.map((row) => row.id));
    const missing = query.ids.filter((id) => !known.has(id));
    if (missing.length > 0)
      return {
        ok: false,
        status: 404,
        code: "not_found",
        message: `no such session: ${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ` and ${missing.length - 5} more` : ""}`,
      };
    return { ok: true, ids: found.map((row) => row.id) };
  }
  const where = sessionFilterWhere(db, query);
  const count = await db.traceSession.count({ where });
  if (count > SESSION_EXPORT_MAX)
    return {
      ok: false,
      status: 400,
      code: "too_many_sessions",
      message: `${count} sessions match; one export holds at most ${SESSION_EXPORT_MAX}: narrow q or format`,
    };
  const rows = await db.traceSession.findMany({ where, select: { id: true }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
  return { ok: true, ids: rows.map((row) => row.id) };
}

/**
 * A set of sessions as one file, one session at a time, so memory stays that of the largest session
 * whatever the set's size. Tracefold JSONL: each session's lines one after another (the format holds
 * many sessions). OTLP: JSON Lines, one `ExportTraceServiceRequest` per session (the OpenTelemetry
 * file exporter's shape), which Tracefold's OTel importer reads back as one session per trace.
 */
export async function* exportSessionSet(db: Db, ids: readonly string[], as: SessionExportFormat): AsyncGenerator<string> {
  for (const id of ids) {
    const loaded = await loadStoredSession(db, id);
    if (!loaded) continue; // deleted since the selection: the rest of the set still exports
    yield as === "otlp" ? `${JSON.stringify(toOtlpJson(loaded.session, { seed: id }))}\n` : toTracefoldJsonl([loaded.session]);
  }
}

/** The download's name and type: `sessions-<n>.tracefold.jsonl` or `sessions-<n>.otlp.jsonl`. */
export function sessionSetFile(count: number, as: SessionExportFormat): { fileName: string; contentType: string } {
  return { fileName: `sessions-${count}.${as === "otlp" ? "otlp" : "tracefold"}.jsonl`, contentType: "application/x-ndjson; charset=utf-8" };
}
