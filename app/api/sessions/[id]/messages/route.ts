import { requireApiUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { getMessageWindow } from "@/server/trace/session/get-message-window";
import { apiOk, invalidRequest, MessageWindowQuerySchema, sessionNotFound } from "@/server/trace/session/session-api";

export const dynamic = "force-dynamic";

/**
 * `GET /api/sessions/[id]/messages?from=0&to=50`: messages [from, to) with previews of every part
 * (`truncated`, `length`, `lines` say what was cut). At most 200 per request; a range past the end
 * is clamped. Viewer role.
 */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const user = await requireApiUser("viewer");
  if (user instanceof Response) return user;
  const { id } = await params;
  const query = MessageWindowQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return invalidRequest(query.error);
  const window = await getMessageWindow(getDb(), id, query.data);
  return window ? apiOk(window) : sessionNotFound();
}
