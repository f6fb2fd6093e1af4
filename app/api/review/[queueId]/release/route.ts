import { z } from "zod";
import { requireApiUser } from "@/server/auth/require";
import { refuseCrossOrigin } from "@/server/security/same-origin";
import { getDb } from "@/server/db/client";
import { releaseItemLease } from "@/server/review/lease-item";

const MAX_BODY_BYTES = 4_096;
const tooLarge = () => Response.json({ ok: false, code: "too_large", message: `the request body is over ${MAX_BODY_BYTES} bytes` }, { status: 413 });
const ReleaseSchema = z.object({ itemKey: z.string().min(1, "itemKey is required").max(2_000) });

/**
 * POST (form-encoded `itemKey=…`) — gives back the item the signed-in reviewer holds. The labeling
 * screen sends it with navigator.sendBeacon when the tab is closed or hidden, where a server action
 * cannot run to completion; only the caller's own lease is cleared (releaseItemLease matches the
 * holder), so a beacon can never free an item someone else holds.
 */
export async function POST(request: Request, { params }: { params: Promise<{ queueId: string }> }): Promise<Response> {
  const crossOrigin = refuseCrossOrigin(request);
  if (crossOrigin) return crossOrigin;
  // The body is read first: a beacon's page (and its connection) is usually gone by the time the
  // session check has answered, and Node refuses a body not read before the client went away.
  // It is capped: anyone may send this request, and an itemKey needs far less.
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY_BYTES) return tooLarge();
  const body = await request.text();
  if (body.length > MAX_BODY_BYTES) return tooLarge();
  const user = await requireApiUser("reviewer");
  if (user instanceof Response) return user;
  const { queueId } = await params;
  const form = new URLSearchParams(body);
  const parsed = ReleaseSchema.safeParse({ itemKey: form.get("itemKey") ?? undefined });
  if (!parsed.success)
    return Response.json(
      { ok: false, code: "invalid_input", message: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") },
      { status: 400 },
    );
  const released = await releaseItemLease(getDb(), queueId, parsed.data.itemKey, user.email);
  return Response.json({ ok: true, data: released });
}
