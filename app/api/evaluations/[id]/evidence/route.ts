import { z } from "zod";
import { requireApiUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { getCutEvidence } from "@/server/evaluation/list-run-cuts";

export const dynamic = "force-dynamic";

const QuerySchema = z.object({ unit: z.string().min(1, "unit is required") });

/** `GET /api/evaluations/[id]/evidence?unit=KEY`: the judge's verdict and evidence for one unit. Viewer role. */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const user = await requireApiUser("viewer");
  if (user instanceof Response) return user;
  const query = QuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return Response.json({ ok: false, code: "invalid_request", message: query.error.issues[0]!.message }, { status: 400 });
  const evidence = await getCutEvidence(getDb(), (await params).id, query.data.unit);
  if (!evidence) return Response.json({ ok: false, code: "not_found", message: "no such unit in this run" }, { status: 404 });
  return Response.json({ ok: true, data: evidence });
}
