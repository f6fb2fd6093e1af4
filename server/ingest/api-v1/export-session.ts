import { toOtlpJson } from "../../../lib/trace/export-otlp-json";
import { toTracefoldJsonl } from "../../../lib/trace/export-tracefold-jsonl";
import type { Db } from "../../db/client";
import { loadStoredSession } from "../../trace/session/load-analyzed-session";

/** The export formats of `GET /api/v1/sessions/{id}/export?as=`. */
export type SessionExportFormat = "jsonl" | "otlp";

/**
 * One stored session as a file: Tracefold JSONL (docs/tracefold-jsonl.md), what uploads and
 * `tracefold import` read back into the same messages, or OTLP JSON in the GenAI conventions
 * (lib/trace/export-otlp-json.ts), what an OpenTelemetry backend takes and Tracefold's OTel importer
 * reads back. OTLP ids are derived from the database id, so the span annotations of the session's
 * review labels (export-span-annotations.ts) point at the same spans. The text is what was stored,
 * so redacted secrets stay redacted. Null when no such session.
 */
export async function exportSession(db: Db, id: string, as: SessionExportFormat): Promise<{ fileName: string; text: string; contentType: string } | null> {
  const loaded = await loadStoredSession(db, id);
  if (!loaded) return null;
  if (as === "otlp")
    return { fileName: `${id}.otlp.json`, text: JSON.stringify(toOtlpJson(loaded.session, { seed: id })), contentType: "application/json; charset=utf-8" };
  return { fileName: `${id}.tracefold.jsonl`, text: toTracefoldJsonl([loaded.session]), contentType: "application/x-ndjson; charset=utf-8" };
}
