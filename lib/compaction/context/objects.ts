import type { Message, Session } from "../../trace/model";
import { countMessageTokens, countPartTokens, partText } from "../../tokens/message-tokens";
import type { Tokenizer } from "../../tokens/tokenizer";
import { extractAnchors, type Anchor } from "./anchors";
import { normaliseToolCall } from "./tool-names";

/**
 * Indexed context objects, exactly as seed 000 defines them:
 * - `conversation:user:k` — the k-th user request together with its execution span (every message
 *   up to the next user request);
 * - `function:<tool>:n` — the n-th result of `<tool>` (normalised name), one per tool_result part.
 *
 * Ids come from one session-local monotonic allocator walking the session in order, so the same
 * session always yields the same ids. Assistant turns are not objects (seed 000: they are
 * connective text, preserved or normalised when their neighbours change).
 */
export type ObjectKind = "conversation" | "function";

export interface PartRef {
  message: number;
  part: number;
}

export interface ContextObject {
  id: string;
  kind: ObjectKind;
  /** k for conversation objects, n for function objects (1-based, per tool). */
  ordinal: number;
  /** Normalised tool name (function objects). */
  tool?: string;
  /** Tool name as the trace wrote it. */
  rawTool?: string;
  /** Inclusive message range the object covers. */
  firstMessage: number;
  lastMessage: number;
  /** The tool_result part (function objects). */
  part?: PartRef;
  /** The tool_call part this result answers, when present. */
  call?: PartRef;
  callId?: string;
  /** Enclosing conversation object for function objects. */
  parentId?: string;
  isError?: boolean;
  tokens: number;
  anchors: Anchor[];
}

export interface ContextIndex {
  sessionId: string;
  tokenizer: Tokenizer["id"];
  objects: ContextObject[];
  byId: ReadonlyMap<string, ContextObject>;
  /** Tokens of each message (parts plus framing). */
  messageTokens: number[];
  /** prefixTokens[i] = tokens of messages[0..i-1]; length messages.length + 1. */
  prefixTokens: number[];
  /** Conversation object id owning each message (undefined for the preamble before the first request). */
  turnOf: (string | undefined)[];
  /** Function object id for each tool_result part, keyed `message:part`. */
  functionAt: ReadonlyMap<string, string>;
}

/** A user message that starts a turn: it says something (tool results arrive as role "tool"). */
export function isUserRequest(message: Message): boolean {
  return message.role === "user" && message.parts.some((p) => p.type === "text" || p.type === "image" || p.type === "other");
}

export function buildContextIndex(session: Session, tokenizer: Tokenizer): ContextIndex {
  const { messages } = session;
  const messageTokens = messages.map((m) => countMessageTokens(m, tokenizer));
  const prefixTokens = new Array<number>(messages.length + 1);
  prefixTokens[0] = 0;
  for (let i = 0; i < messages.length; i++) prefixTokens[i + 1] = prefixTokens[i]! + messageTokens[i]!;

  const calls = new Map<string, PartRef & { name: string; args: string }>();
  const toolCounters = new Map<string, number>();
  const objects: ContextObject[] = [];
  const turnOf: (string | undefined)[] = new Array(messages.length).fill(undefined);
  const functionAt = new Map<string, string>();
  let turn: ContextObject | undefined;
  let userCounter = 0;

  const closeTurn = (lastMessage: number) => {
    if (!turn) return;
    turn.lastMessage = lastMessage;
    turn.tokens = prefixTokens[lastMessage + 1]! - prefixTokens[turn.firstMessage]!;
  };

  messages.forEach((message, m) => {
    if (isUserRequest(message)) {
      closeTurn(m - 1);
      userCounter += 1;
      turn = {
        id: `conversation:user:${userCounter}`,
        kind: "conversation",
        ordinal: userCounter,
        firstMessage: m,
        lastMessage: m,
        tokens: 0,
        anchors: extractAnchors(message.parts.map(partText).join("\n")),
      };
      objects.push(turn);
    }
    turnOf[m] = turn?.id;
    message.parts.forEach((part, p) => {
      if (part.type === "tool_call") {
        calls.set(part.id, { message: m, part: p, name: part.name, args: part.arguments });
        return;
      }
      if (part.type !== "tool_result") return;
      const call = calls.get(part.callId);
      const rawTool = call?.name ?? part.name ?? "tool";
      const tool = normaliseToolCall(rawTool, call?.args ?? "");
      const ordinal = (toolCounters.get(tool) ?? 0) + 1;
      toolCounters.set(tool, ordinal);
      const object: ContextObject = {
        id: `function:${tool}:${ordinal}`,
        kind: "function",
        ordinal,
        tool,
        rawTool,
        firstMessage: m,
        lastMessage: m,
        part: { message: m, part: p },
        ...(call ? { call: { message: call.message, part: call.part } } : {}),
        callId: part.callId,
        ...(turn ? { parentId: turn.id } : {}),
        ...(part.isError ? { isError: true } : {}),
        tokens: countPartTokens(part, tokenizer),
        anchors: extractAnchors(part.content),
      };
      objects.push(object);
      functionAt.set(`${m}:${p}`, object.id);
    });
  });
  closeTurn(messages.length - 1);

  return {
    sessionId: session.id,
    tokenizer: tokenizer.id,
    objects,
    byId: new Map(objects.map((o) => [o.id, o])),
    messageTokens,
    prefixTokens,
    turnOf,
    functionAt,
  };
}
