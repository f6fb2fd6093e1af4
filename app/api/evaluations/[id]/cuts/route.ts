import { z } from "zod";
import { parseBudgetKey } from "@/lib/evaluation/cuts/budget";
import { requireApiUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { listRunCuts } from "@/server/evaluation/list-run-cuts";

export const dynamic = "force-dynamic";

const QuerySchema = z.object({
  policy: z.string().min(1, "policy is required"),
  /** `own` (default): the policy's own settings; else a budget key (`budget-40`, `match-self-gc`). */
  budget: z
    .string()
    .refine((b) => b === "own" || parseBudgetKey(b) !== undefined, "budget must be own, budget-<percent> or match-<policy>")
    .optional(),
});

/** `GET /api/evaluations/[id]/cuts?policy=ID[&budget=own|budget-40|match-ID]`: every cut of one policy in the run at one budget (drill-down). Viewer role. */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const user = await requireApiUser("viewer");
  if (user instanceof Response) return user;
  const query = QuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return Response.json({ ok: false, code: "invalid_request", message: query.error.issues[0]!.message }, { status: 400 });
  const db = getDb();
  const id = (await params).id;
  if (!(await db.evalRun.count({ where: { id } }))) return Response.json({ ok: false, code: "not_found", message: "no such evaluation run" }, { status: 404 });
  return Response.json({
    ok: true,
    data: await listRunCuts(db, id, query.data.policy, !query.data.budget || query.data.budget === "own" ? null : query.data.budget),
  });
}
