import { requireApiUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { getMessage } from "@/server/trace/session/get-message";
import { apiFail, apiOk, invalidRequest, MessageIndexParamSchema } from "@/server/trace/session/session-api";

export const dynamic = "force-dynamic";

/** `GET /api/sessions/[id]/messages/[index]`: one message with every part in full. Viewer role. */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string; index: string }> }): Promise<Response> {
  const user = await requireApiUser("viewer");
  if (user instanceof Response) return user;
  const { id, index } = await params;
  const parsed = MessageIndexParamSchema.safeParse({ index });
  if (!parsed.success) return invalidRequest(parsed.error);
  const message = await getMessage(getDb(), id, parsed.data.index);
  return message ? apiOk(message) : apiFail(404, "not_found", "no such session or message");
}
