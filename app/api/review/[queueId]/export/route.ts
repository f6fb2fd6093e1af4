import { requireApiUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { exportGoldQueue } from "@/server/review/export-gold";
import { exportQueueLabels } from "@/server/review/transfer-labels";

/** GET ?format=jsonl|csv|gold — every label version of a queue, as a download (viewers may read); `gold`: a calibration queue as a gold file (unit + label per line). */
export async function GET(request: Request, { params }: { params: Promise<{ queueId: string }> }): Promise<Response> {
  const user = await requireApiUser("viewer");
  if (user instanceof Response) return user;
  const { queueId } = await params;
  const format = new URL(request.url).searchParams.get("format") ?? "jsonl";
  if (format !== "jsonl" && format !== "csv" && format !== "gold")
    return Response.json({ ok: false, code: "invalid_input", message: "format must be jsonl, csv or gold" }, { status: 400 });
  const text = format === "gold" ? await exportGoldQueue(getDb(), queueId) : await exportQueueLabels(getDb(), queueId, format);
  if (text === null && format === "gold") return Response.json({ ok: false, code: "not_found", message: `no calibration queue ${queueId}` }, { status: 404 });
  if (text === null) return Response.json({ ok: false, code: "not_found", message: `no review queue ${queueId}` }, { status: 404 });
  return new Response(text, {
    headers: {
      "content-type": format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
      "content-disposition": `attachment; filename="${format === "gold" ? `gold-${queueId}.jsonl` : `review-${queueId}.${format}`}"`,
    },
  });
}
