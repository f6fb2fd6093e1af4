import { GoldUnitSchema, type GoldUnit } from "@/lib/evaluation/calibration/gold";
import { rebuildPayload } from "@/lib/evaluation/calibration/sidecar-source";
import { readableText } from "@/lib/evaluation/judge/part-texts";
import { expandView } from "@/lib/evaluation/views/compact-view";
import type { ViewVerdictItem } from "@/lib/review";
import { sha256Hex } from "@/lib/util/sha256";
import type { Db } from "../db/client";
import { loadAnalyzedSession } from "../trace/session/load-analyzed-session";
import { FUTURE_MESSAGES, PART_TEXT_CAP } from "./item-context-build";
import type { MessageText, SidecarText } from "./item-view-types";

/**
 * What a calibration item shows, built from its stored gold unit and its session (no evaluation
 * run): the view as the policy left it (folded pointers, masks, summaries as text), the sidecars
 * the view names (their payload rebuilt from the trace and checked against the digest), and the
 * real future from the cut. Blind by construction: nothing here names the policy, its budget or a
 * judge. Built once per item and process (a small LRU): the unit and the session never change.
 */
export interface ViewVerdictContext {
  sessionTitle: string;
  view: MessageText[];
  sidecars: SidecarText[];
  future: MessageText[];
}

export async function loadViewVerdictContext(db: Db, queueId: string, item: ViewVerdictItem): Promise<ViewVerdictContext | null> {
  const key = `${queueId}|${item.id}`;
  let hit = cache.get(key);
  cache.delete(key);
  if (!hit) {
    hit = build(db, queueId, item);
    hit.catch(() => cache.get(key) === hit && cache.delete(key));
  }
  cache.set(key, hit);
  if (cache.size > 64) cache.delete(cache.keys().next().value!);
  return hit;
}

const cache = new Map<string, Promise<ViewVerdictContext | null>>();

/** The gold unit stored with an item, and the stored session it was matched to at import. */
export async function loadStoredUnit(db: Db, queueId: string, itemKey: string): Promise<{ unit: GoldUnit; sessionId: string } | null> {
  const row = await db.reviewItem.findUnique({ where: { queueId_itemKey: { queueId, itemKey } }, select: { unit: true, sessionId: true } });
  if (!row?.unit) return null;
  return { unit: GoldUnitSchema.parse(JSON.parse(row.unit)) as unknown as GoldUnit, sessionId: row.sessionId };
}

async function build(db: Db, queueId: string, item: ViewVerdictItem): Promise<ViewVerdictContext | null> {
  const stored = await loadStoredUnit(db, queueId, item.id);
  if (!stored) return null;
  const [loaded, row] = await Promise.all([
    loadAnalyzedSession(db, stored.sessionId),
    db.traceSession.findUnique({ where: { id: stored.sessionId }, select: { title: true } }),
  ]);
  if (!loaded || !row) return null;
  const { messages } = loaded.session;
  const { unit } = stored;
  const view = expandView(messages, unit.view).map((m, i) => ({
    message: typeof m.origin === "number" ? m.origin : i,
    role: typeof m.origin === "number" ? m.role : `${m.role} (${m.origin})`,
    parts: m.parts.map((p, part) => textOf(part, p)),
  }));
  const sidecars = unit.sidecars.map((s): SidecarText => {
    const payload = s.payload ?? (s.source ? rebuildPayload(messages, s.source) : undefined);
    const intact = payload !== undefined && sha256Hex(payload) === s.digest;
    return {
      digest: s.digest,
      objectId: s.objectId,
      text: intact ? payload.slice(0, PART_TEXT_CAP) : "",
      truncated: intact && payload.length > PART_TEXT_CAP,
      missing: !intact,
    };
  });
  const future = messages
    .slice(unit.cut, unit.cut + FUTURE_MESSAGES)
    .map((m, i) => ({ message: unit.cut + i, role: m.role, parts: m.parts.map((p, part) => textOf(part, p)) }));
  return { sessionTitle: row.title, view, sidecars, future };
}

function textOf(part: number, p: Parameters<typeof readableText>[0]): MessageText["parts"][number] {
  const full = readableText(p);
  return {
    part,
    type: p.type,
    ...("name" in p && typeof p.name === "string" ? { name: p.name } : {}),
    text: full.slice(0, PART_TEXT_CAP),
    truncated: full.length > PART_TEXT_CAP,
  };
}
