import type { FormatId, ParseIssue } from "@/lib/trace/model";
import type { Db } from "../../db/client";
import { getUploadRedaction, MAX_REDACTIONS_IN_RESPONSE } from "./redaction-report";
import { MAX_ISSUES_IN_RESPONSE, outcomeResponse, type UploadResponse } from "./upload-response";

/**
 * What `GET /api/uploads/imports/<id>` answers for a large upload handed to a job worker: while it
 * waits or runs, `{ ok: true, data: { status: "queued" | "importing", importId, … } }`; once it
 * ended, the very body `PUT /api/uploads` gives for a file imported during the request (the
 * sessions, warnings and redaction report, or the located errors), so the upload page shows both
 * the same way. Null when there is no such import.
 */
export async function getUploadImportResponse(db: Db, importId: string): Promise<UploadResponse | null> {
  const row = await db.uploadImport.findUnique({ where: { id: importId } });
  if (!row) return null;
  if (row.status === "queued" || row.status === "importing") {
    return { ok: true, data: { status: row.status, importId: row.id, fileName: row.fileName, bytes: row.bytes } };
  }
  if ((row.status === "imported" || row.status === "duplicate") && row.uploadId) {
    const upload = await db.upload.findUnique({ where: { id: row.uploadId }, include: { sessions: { orderBy: { ordinal: "asc" } } } });
    if (upload) {
      const sessions = upload.sessions.map((s) => ({ id: s.id, title: s.title, messages: s.messageCount, toolCalls: s.toolCalls }));
      if (row.status === "duplicate") return outcomeResponse({ status: "duplicate", uploadId: upload.id, format: upload.format, sessions }).body;
      const redaction = await getUploadRedaction(db, upload.id, MAX_REDACTIONS_IN_RESPONSE);
      const warnings = JSON.parse(upload.issues) as ParseIssue[];
      return outcomeResponse({
        status: "imported",
        uploadId: upload.id,
        format: upload.format as FormatId,
        sessions,
        warnings,
        ...(redaction ? { redaction } : {}),
      }).body;
    }
  }
  const issues = JSON.parse(row.issues) as ParseIssue[];
  return {
    ok: false,
    code: issues.length > 0 ? "invalid_trace" : "import_failed",
    message: row.error ?? "the import failed",
    ...(issues.length > 0 ? { issues: issues.slice(0, MAX_ISSUES_IN_RESPONSE), issueCount: issues.length } : {}),
  };
}
