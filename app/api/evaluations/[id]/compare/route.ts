import { z } from "zod";
import { requireApiUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { compareRunPolicies } from "@/server/evaluation/get-run-aggregates";

export const dynamic = "force-dynamic";

const QuerySchema = z
  .object({ a: z.string().min(1, "a is required"), b: z.string().min(1, "b is required") })
  .refine((q) => q.a !== q.b, { message: "pick two different policies" });

/** `GET /api/evaluations/[id]/compare?a=ID&b=ID`: McNemar's exact test of two policies on their shared cuts. Viewer role. */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const user = await requireApiUser("viewer");
  if (user instanceof Response) return user;
  const query = QuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return Response.json({ ok: false, code: "invalid_request", message: query.error.issues[0]!.message }, { status: 400 });
  const result = await compareRunPolicies(getDb(), (await params).id, query.data.a, query.data.b);
  if (!result) return Response.json({ ok: false, code: "not_found", message: "no such evaluation run" }, { status: 404 });
  return Response.json({ ok: true, data: result });
}
