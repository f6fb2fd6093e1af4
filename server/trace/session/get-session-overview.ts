import type { CompactionKind } from "@/lib/trace/model";
import type { Db } from "../../db/client";
import type { CompactionView, ObjectSummary, SessionOverview } from "./types";

const ROLE_CODES: Record<string, string> = { system: "s", user: "u", assistant: "a", tool: "t" };

/**
 * The session row, its context objects and native compactions, plus each message's role and token
 * count (no bodies: a 12,000-message session costs two small columns here). Null for unknown ids.
 */
export async function getSessionOverview(db: Db, sessionId: string): Promise<SessionOverview | null> {
  const session = await db.traceSession.findUnique({
    where: { id: sessionId },
    include: { upload: { select: { fileName: true } } },
  });
  if (!session) return null;
  const [messages, objects, compactions] = await Promise.all([
    db.traceMessage.findMany({ where: { sessionId }, select: { role: true, tokens: true }, orderBy: { index: "asc" } }),
    db.contextObjectRow.findMany({
      where: { sessionId },
      select: {
        objectId: true,
        kind: true,
        tool: true,
        firstMessage: true,
        lastMessage: true,
        partMessage: true,
        partIndex: true,
        tokens: true,
        isError: true,
      },
      orderBy: [{ firstMessage: "asc" }, { kind: "asc" }, { partIndex: "asc" }],
    }),
    db.nativeCompactionRow.findMany({ where: { sessionId }, orderBy: [{ beforeMessage: "asc" }, { sourceLine: "asc" }] }),
  ]);

  let maxMessageTokens = 0;
  const messageTokens = messages.map((m) => {
    if (m.tokens > maxMessageTokens) maxMessageTokens = m.tokens;
    return m.tokens;
  });

  return {
    id: session.id,
    externalId: session.externalId,
    title: session.title,
    format: session.format,
    models: parseStringArray(session.models),
    tools: parseStringArray(session.tools),
    tokenizer: session.tokenizer,
    fileName: session.upload.fileName,
    ...(session.startedAt ? { startedAt: session.startedAt } : {}),
    messageCount: session.messageCount,
    toolCalls: session.toolCalls,
    toolResults: session.toolResults,
    tokens: session.tokens,
    ...(session.providerInputTokens !== null ? { providerInputTokens: session.providerInputTokens } : {}),
    maxMessageTokens,
    messageTokens,
    roleCodes: messages.map((m) => ROLE_CODES[m.role] ?? "?").join(""),
    objects: objects.map(toObjectSummary),
    compactions: compactions.map((c): CompactionView => ({
      kind: c.kind as CompactionKind,
      beforeMessage: c.beforeMessage,
      ...(c.trigger !== null ? { trigger: c.trigger } : {}),
      ...(c.preTokens !== null ? { preTokens: c.preTokens } : {}),
      ...(c.summary !== null ? { summary: c.summary } : {}),
      ...(c.timestamp !== null ? { timestamp: c.timestamp } : {}),
    })),
  };
}

function toObjectSummary(o: {
  objectId: string;
  kind: string;
  tool: string | null;
  firstMessage: number;
  lastMessage: number;
  partMessage: number | null;
  partIndex: number | null;
  tokens: number;
  isError: boolean;
}): ObjectSummary {
  return {
    id: o.objectId,
    kind: o.kind === "function" ? "function" : "conversation",
    ...(o.tool !== null ? { tool: o.tool } : {}),
    firstMessage: o.firstMessage,
    lastMessage: o.lastMessage,
    ...(o.partMessage !== null ? { partMessage: o.partMessage } : {}),
    ...(o.partIndex !== null ? { partIndex: o.partIndex } : {}),
    tokens: o.tokens,
    ...(o.isError ? { isError: true } : {}),
  };
}

function parseStringArray(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}
