import { ReviewLabelSchema, toSpanAnnotations, type LabelQueues, type SpanAnnotation } from "@/lib/review";
import type { Db } from "../db/client";
import { loadStoredSession } from "../trace/session/load-analyzed-session";

/**
 * A stored session's review labels, from every queue that has items on it, as Phoenix /
 * OpenInference span annotations (lib/review/transfer/span-annotations.ts) pointing at the spans of
 * the session's OTLP export (`GET /api/v1/sessions/{id}/export?as=otlp`, ids seeded with the same
 * database id). Null when no such session; `{data: []}` when nobody labelled it.
 */
export async function sessionSpanAnnotations(db: Db, sessionId: string): Promise<{ data: SpanAnnotation[] } | null> {
  const loaded = await loadStoredSession(db, sessionId);
  if (!loaded) return null;
  const items = await db.reviewItem.findMany({ where: { sessionId }, select: { queueId: true, itemKey: true, queue: { select: { name: true, kind: true } } } });
  const keysByQueue = new Map<string, string[]>();
  for (const item of items) keysByQueue.set(item.queueId, [...(keysByQueue.get(item.queueId) ?? []), item.itemKey]);
  const rows = keysByQueue.size
    ? await db.reviewLabelRow.findMany({
        where: { OR: [...keysByQueue].map(([queueId, itemKeys]) => ({ queueId, itemKey: { in: itemKeys } })) },
        select: { queueId: true, labelId: true, body: true },
        orderBy: [{ labelId: "asc" }, { version: "asc" }],
      })
    : [];
  const queueOf = new Map(items.map((i) => [i.queueId, { id: i.queueId, name: i.queue.name, kind: i.queue.kind }]));
  const queues: LabelQueues = new Map(rows.map((r) => [r.labelId, queueOf.get(r.queueId)!]));
  // A stored row that no longer parses fails loudly (as server/review/label-rows.ts does) rather than vanishing from the export.
  const labels = rows.map((row) => ReviewLabelSchema.parse(JSON.parse(row.body)));
  return toSpanAnnotations(labels, loaded.session, sessionId, queues);
}
