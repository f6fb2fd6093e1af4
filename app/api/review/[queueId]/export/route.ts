import { requireApiUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { exportQueueLabels } from "@/server/review/transfer-labels";

/** GET ?format=jsonl|csv — every label version of a queue, as a download (viewers may read). */
export async function GET(request: Request, { params }: { params: Promise<{ queueId: string }> }): Promise<Response> {
  const user = await requireApiUser("viewer");
  if (user instanceof Response) return user;
  const { queueId } = await params;
  const format = new URL(request.url).searchParams.get("format") ?? "jsonl";
  if (format !== "jsonl" && format !== "csv") return Response.json({ ok: false, code: "invalid_input", message: "format must be jsonl or csv" }, { status: 400 });
  const text = await exportQueueLabels(getDb(), queueId, format);
  if (text === null) return Response.json({ ok: false, code: "not_found", message: `no review queue ${queueId}` }, { status: 404 });
  return new Response(text, {
    headers: {
      "content-type": format === "jsonl" ? "application/x-ndjson; charset=utf-8" : "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="review-${queueId}.${format}"`,
    },
  });
}
