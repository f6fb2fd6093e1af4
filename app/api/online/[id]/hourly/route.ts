import { hourlyToCsv } from "@/lib/online/estimation/hourly-csv";
import { requireApiUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { getOnlineReport } from "@/server/online/online-report";
import { OnlineQuerySchema, queryObject } from "@/server/online/report-query";

export const dynamic = "force-dynamic";

/**
 * `GET /api/online/<log id>/hourly?assign=…&window=…&tz=…` — the hourly aggregates behind the
 * studio's curves (pooled and day by day) as a CSV download, under the same controls as the page.
 */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const user = await requireApiUser("viewer");
  if (user instanceof Response) return user;
  const { id } = await params;
  const query = OnlineQuerySchema.safeParse(queryObject(new URL(request.url).searchParams));
  if (!query.success)
    return Response.json({ ok: false, code: "invalid_request", message: query.error.issues.map((i) => i.message).join("; ") }, { status: 400 });
  const result = await getOnlineReport(getDb(), id, query.data);
  if (!result) return Response.json({ ok: false, code: "not_found", message: "no such usage log" }, { status: 404 });
  if (!result.report)
    return Response.json({ ok: false, code: "no_data", message: result.warning ?? "no calls of both groups in this window and filter" }, { status: 422 });
  const name = result.log.fileName.replace(/\.[^.]*$/, "").replace(/[^\w.-]+/g, "_");
  return new Response(hourlyToCsv(result.report), {
    headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${name}-hourly.csv"`, "Cache-Control": "no-store" },
  });
}
