import { z } from "zod";
import { requireApiUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { getRunBreakdown, RUN_BREAKDOWNS } from "@/server/evaluation/get-run-breakdown";

export const dynamic = "force-dynamic";

const QuerySchema = z.object({ by: z.enum(RUN_BREAKDOWNS, { message: "by must be workload or format" }) });

/** `GET /api/evaluations/[id]/breakdown?by=workload|format`: per-group per-policy rows of a run. Viewer role. */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const user = await requireApiUser("viewer");
  if (user instanceof Response) return user;
  const query = QuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return Response.json({ ok: false, code: "invalid_request", message: query.error.issues[0]!.message }, { status: 400 });
  const result = await getRunBreakdown(getDb(), (await params).id, query.data.by);
  if (!result) return Response.json({ ok: false, code: "not_found", message: "no such evaluation run" }, { status: 404 });
  return Response.json({ ok: true, data: result });
}
