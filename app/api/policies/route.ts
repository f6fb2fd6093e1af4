import { requireApiUser } from "@/server/auth/require";
import type { PoliciesResponse } from "@/server/compaction/compaction-api";
import { listPolicyInfo } from "@/server/compaction/policy-catalog";

export const dynamic = "force-dynamic";

/** `GET /api/policies`: every policy with its family, source, description and parameter specs. Viewer role. */
export async function GET(): Promise<Response> {
  const user = await requireApiUser("viewer");
  if (user instanceof Response) return user;
  return Response.json({ ok: true, data: listPolicyInfo() } satisfies PoliciesResponse);
}
