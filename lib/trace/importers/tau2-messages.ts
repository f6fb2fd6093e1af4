import { z } from "zod";
import type { IssueList } from "../importer";
import type { Message, Part, Usage } from "../model";
import type { SessionBuilder } from "../session-builder";
import { asText } from "../json-lines";
import { reportZodIssues, type RecordLocation } from "../zod-issues";

/**
 * One tau2-bench message (`simulations[i].messages[j]`), older and newer schema alike: `role`
 * assistant | user | tool | system, `content` (null when the turn is only tool calls),
 * `tool_calls[{id, name, arguments (an object), requestor}]`, `usage{prompt_tokens,
 * completion_tokens}`, `timestamp`; tool messages carry the call's `id`, `requestor` and `error`.
 * The newer schema adds audio/turn-taking fields (`is_audio`, `turn_idx`, `utterance_ids`…), which
 * carry nothing for the conversation and are ignored, as is `raw_data` (the provider's response
 * again).
 *
 * Dual control (telecom): the simulated user has tools of its own (its phone), so a `user`
 * message may hold `tool_calls` with `requestor: "user"` and the matching `tool` message answers
 * the user. They stay in conversation order, with `meta.requestor = "user"` on both; the agent never
 * saw them (tau2 routes them between the user simulator and its device), which is why the flag is
 * kept.
 */
const ToolCallSchema = z.looseObject({
  id: z.string().min(1),
  name: z.string().min(1),
  arguments: z.unknown().optional(),
  requestor: z.string().nullish(),
});

const Tau2MessageSchema = z.looseObject({
  role: z.enum(["system", "user", "assistant", "tool"]),
  content: z.string().nullish(),
  tool_calls: z.array(ToolCallSchema).nullish(),
  id: z.string().min(1).nullish(),
  requestor: z.string().nullish(),
  error: z.boolean().nullish(),
  usage: z.looseObject({ prompt_tokens: z.number().nullish(), completion_tokens: z.number().nullish() }).nullish(),
  timestamp: z.string().nullish(),
});
type Tau2Message = z.infer<typeof Tau2MessageSchema>;

/** Where one message goes and how it is located (`where.field` is `simulations[i].messages[j]`). */
export interface Tau2MessageContext {
  builder: SessionBuilder;
  issues: IssueList;
  file: string;
  /** The agent's model (`info.agent_info.llm`), put on assistant messages. */
  agentModel: string | undefined;
  where: RecordLocation;
}

/** Validates and adds one message; an invalid one is reported with every problem and skipped. */
export function addTau2Message(raw: unknown, context: Tau2MessageContext): void {
  const { builder, issues, file, where } = context;
  const parsed = Tau2MessageSchema.safeParse(raw);
  if (!parsed.success) {
    reportZodIssues(issues, parsed.error, where, "tau2 message skipped");
    return;
  }
  const message = parsed.data;
  if (message.role === "tool" && !message.id) {
    issues.error(
      where.lineOf(`${where.field}.id`),
      "tau2 tool message without the id of the call it answers; skipped",
      `${where.field}.id`,
      "the id of an earlier tool call",
    );
    return;
  }
  builder.add({ ...messageBody(message, context.agentModel), source: { file, line: where.lineOf(where.field) } });
}

function messageBody(message: Tau2Message, agentModel: string | undefined): Omit<Message, "index" | "source"> {
  const timestamp = message.timestamp ?? undefined;
  const userSide = message.requestor === "user" || (message.tool_calls ?? []).some((c) => c.requestor === "user");
  const common = { ...(timestamp ? { timestamp } : {}), ...(userSide ? { meta: { requestor: "user" } } : {}) };
  if (message.role === "tool") {
    const result: Part = { type: "tool_result", callId: message.id!, content: message.content ?? "", ...(message.error ? { isError: true } : {}) };
    return { role: "tool", parts: [result], ...common };
  }
  const parts: Part[] = message.content ? [{ type: "text", text: message.content }] : [];
  for (const call of message.tool_calls ?? []) parts.push({ type: "tool_call", id: call.id, name: call.name, arguments: asText(call.arguments ?? {}) });
  const usage = message.role === "assistant" ? usageOf(message.usage) : undefined;
  return {
    role: message.role,
    parts,
    ...common,
    ...(message.role === "assistant" && agentModel ? { model: agentModel } : {}),
    ...(usage ? { usage } : {}),
  };
}

/** Only the agent's usage is kept per message: the user simulator's calls are not the agent's context. */
function usageOf(raw: Tau2Message["usage"]): Usage | undefined {
  if (!raw) return undefined;
  const usage: Usage = {};
  if (typeof raw.prompt_tokens === "number") usage.inputTokens = raw.prompt_tokens;
  if (typeof raw.completion_tokens === "number") usage.outputTokens = raw.completion_tokens;
  return Object.keys(usage).length ? usage : undefined;
}
