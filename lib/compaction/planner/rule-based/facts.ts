import type { ContextObject } from "../../context/objects";
import { partText } from "../../../tokens/message-tokens";
import type { PlannerInput } from "../types";
import { describeCall, type CallFacts } from "./call-facts";
import { looksFailed } from "./text-shape";
import { CALL_BODY_MIN_CHARS } from "../../projection/pointers";

/**
 * One pass over the prefix collecting what the ordered rules read (seed 000, planner contract):
 * for each function object its call, text, failure state and whether it is protected or recent;
 * for each conversation object its request text. Linear in the prefix.
 */
export interface FunctionFacts {
  object: ContextObject;
  call: CallFacts;
  content: string;
  /**
   * Estimated tokens of the body the call generated (its arguments, when long enough that a span
   * fold moves them to a sidecar too: a Write's content, an Edit's strings, a heredoc), else 0.
   */
  callBodyTokens: number;
  /** Lines of the call's own text (a multi-line script or snippet has several; JSON escapes count). */
  callLines: number;
  failed: boolean;
  isProtected: boolean;
  /** Inside the newest share of the prefix, where the agent is still working. */
  isRecent: boolean;
}

export interface ConversationFacts {
  object: ContextObject;
  request: string;
  /** Overlaps the protected latest turn. */
  isProtected: boolean;
}

export interface PrefixFacts {
  functions: FunctionFacts[];
  conversations: ConversationFacts[];
  byId: Map<string, FunctionFacts>;
  prefixTokens: number;
}

export interface FactOptions {
  /** Newest share of the prefix tokens treated as the working set (default 0.15). */
  recentShare?: number;
  /** The newest N tool results always count as recent (default 4). */
  recentResults?: number;
}

export function collectFacts(input: PlannerInput, options: FactOptions = {}): PrefixFacts {
  const { session, index, cut, protect } = input;
  const prefixTokens = index.prefixTokens[cut]!;
  const recentFrom = prefixTokens * (1 - (options.recentShare ?? 0.15));
  const functions: FunctionFacts[] = [];
  const conversations: ConversationFacts[] = [];
  for (const object of index.objects) {
    if (object.firstMessage >= cut) break;
    if (object.kind === "conversation") {
      const last = Math.min(object.lastMessage, cut - 1);
      let overlaps = false;
      for (let m = object.firstMessage; m <= last && !overlaps; m++) overlaps = protect.messages.has(m);
      const request = session.messages[object.firstMessage]!.parts.map(partText).join("\n");
      conversations.push({ object, request, isProtected: overlaps });
      continue;
    }
    const part = object.part ? session.messages[object.part.message]?.parts[object.part.part] : undefined;
    const callPart = object.call ? session.messages[object.call.message]?.parts[object.call.part] : undefined;
    const args = callPart?.type === "tool_call" ? callPart.arguments : "";
    const content = part ? partText(part) : "";
    functions.push({
      object,
      call: describeCall(object.tool ?? "tool", args),
      content,
      callBodyTokens: args.length >= CALL_BODY_MIN_CHARS ? Math.round(args.length / 4) : 0,
      callLines: 1 + (args.match(/\\n|\n/g)?.length ?? 0),
      failed: looksFailed(content, object.isError, object.tool),
      isProtected: protect.messages.has(object.firstMessage),
      isRecent: index.prefixTokens[object.firstMessage]! >= recentFrom,
    });
  }
  const recentResults = options.recentResults ?? 4;
  for (let i = Math.max(0, functions.length - recentResults); i < functions.length; i++) functions[i]!.isRecent = true;
  return { functions, conversations, byId: new Map(functions.map((f) => [f.object.id, f])), prefixTokens };
}
