import type { Part } from "@/lib/trace/model";
import type { Db } from "../../db/client";
import { parseParts, type MessageLinks } from "./message-view";

/** Calls answered inside the window need no lookup; this caps lookups for calls before it. */
const MAX_CALL_LOOKUPS = 64;
/** Keeps `IN (…)` lists under every engine's bound-parameter limit. */
const IN_BATCH = 500;

/**
 * Resolves the links the viewer draws for a run of consecutive messages: each tool_result's object
 * id, each user request's conversation id, where each tool_call's result is, and where each
 * tool_result's call is. ContextObjectRow carries the result side (partMessage/partIndex, callId);
 * a call that precedes the run is found with one indexed backwards scan per call id.
 */
export async function annotateMessages(db: Db, sessionId: string, messages: { index: number; parts: Part[] }[]): Promise<MessageLinks> {
  const objectAt = new Map<string, string>();
  const conversationAt = new Map<number, string>();
  const resultOf = new Map<string, { message: number; objectId: string }>();
  const callMessageOf = new Map<string, number>();
  if (messages.length === 0) return { objectAt, conversationAt, resultOf, callMessageOf };
  const first = messages[0]!.index;
  const last = messages[messages.length - 1]!.index;

  const callIds: string[] = [];
  const unresolved = new Map<string, number>();
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type === "tool_call") {
        callIds.push(part.id);
        callMessageOf.set(part.id, message.index);
      }
    }
  }
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type === "tool_result" && !part.orphan && !callMessageOf.has(part.callId) && !unresolved.has(part.callId)) {
        unresolved.set(part.callId, message.index);
      }
    }
  }

  const inRun = await db.contextObjectRow.findMany({
    where: { sessionId, firstMessage: { gte: first, lte: last } },
    select: { objectId: true, kind: true, firstMessage: true, partMessage: true, partIndex: true },
  });
  for (const o of inRun) {
    if (o.kind === "conversation") conversationAt.set(o.firstMessage, o.objectId);
    else if (o.partMessage !== null && o.partIndex !== null) objectAt.set(`${o.partMessage}:${o.partIndex}`, o.objectId);
  }

  for (let i = 0; i < callIds.length; i += IN_BATCH) {
    const results = await db.contextObjectRow.findMany({
      where: { sessionId, kind: "function", firstMessage: { gte: first }, callId: { in: callIds.slice(i, i + IN_BATCH) } },
      select: { objectId: true, callId: true, partMessage: true },
      orderBy: { firstMessage: "asc" },
    });
    for (const r of results) {
      if (r.callId !== null && r.partMessage !== null && !resultOf.has(r.callId)) resultOf.set(r.callId, { message: r.partMessage, objectId: r.objectId });
    }
  }

  for (const [callId, resultMessage] of [...unresolved].slice(0, MAX_CALL_LOOKUPS)) {
    const message = await findCallMessage(db, sessionId, callId, resultMessage);
    if (message !== undefined) callMessageOf.set(callId, message);
  }
  return { objectAt, conversationAt, resultOf, callMessageOf };
}

/** The nearest message before `before` holding a tool_call with this id (verified after parsing). */
async function findCallMessage(db: Db, sessionId: string, callId: string, before: number): Promise<number | undefined> {
  const candidates = await db.traceMessage.findMany({
    where: { sessionId, index: { lt: before }, parts: { contains: `"id":${JSON.stringify(callId)}` } },
    select: { index: true, parts: true },
    orderBy: { index: "desc" },
    take: 3,
  });
  return candidates.find((c) => parseParts(c.parts).some((p) => p.type === "tool_call" && p.id === callId))?.index;
}
