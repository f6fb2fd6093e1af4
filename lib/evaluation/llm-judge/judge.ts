import { clientIdFor, type LlmClient, type LlmMessage, type LlmResponse } from "../../llm/types";
import type { JudgeVerdict } from "../judge/verdict-schema";
import { buildJudgeMessages, repairMessage } from "./contract";
import type { AnswerParseError, ParseOutcome } from "./issues";
import type { JudgePacket } from "./packet";
import { parseJudgeVerdict } from "./parse-verdict";

/**
 * The LLM no-impact judge: sends the contract and a packet to the configured model (purpose
 * "judge", temperature 0) and parses the answer strictly. A malformed answer is not an exception:
 * it comes back as `{ ok: false, error }` with every problem located, and the raw text, so runs
 * can store and count judge failures. With `repairAttempts` > 0 the judge is shown its error and
 * asked once more (each attempt is recorded; by default once). Transport failures (HTTP, timeouts) are the
 * client's typed errors and propagate.
 */
export interface LlmJudgeOptions {
  maxTokens?: number;
  /** Follow-up turns quoting the parse error (default 1: one repair retry; 0: the first answer stands). */
  repairAttempts?: number;
}

export interface JudgeAttempt {
  raw: string;
  model: string;
  inputTokens?: number;
  outputTokens?: number;
  cachedInputTokens?: number;
  error?: AnswerParseError;
}

export type JudgeOutcome =
  | { ok: true; judge: string; verdict: JudgeVerdict; attempts: JudgeAttempt[] }
  | { ok: false; judge: string; error: AnswerParseError; attempts: JudgeAttempt[] };

export interface LlmJudge {
  /** `llm:<client id>`: stored with each verdict. */
  id: string;
  judge(packet: JudgePacket): Promise<JudgeOutcome>;
}

export function createLlmJudge(client: LlmClient, options: LlmJudgeOptions = {}): LlmJudge {
  const id = `llm:${clientIdFor(client, "judge")}`;
  return {
    id,
    async judge(packet) {
      const result = await askWithRepairs(client, buildJudgeMessages(packet), "judge", options, (text) =>
        parseJudgeVerdict(text, { knownIds: packet.objectIds }),
      );
      return result.ok
        ? { ok: true, judge: id, verdict: result.value, attempts: result.attempts }
        : { ok: false, judge: id, error: result.error, attempts: result.attempts };
    },
  };
}

/** Shared ask → parse → (repair) loop of both judges. */
export async function askWithRepairs<T>(
  client: LlmClient,
  messages: LlmMessage[],
  purpose: "judge" | "ab-judge",
  options: LlmJudgeOptions,
  parse: (text: string) => ParseOutcome<T>,
): Promise<({ ok: true; value: T } | { ok: false; error: AnswerParseError }) & { attempts: JudgeAttempt[] }> {
  const attempts: JudgeAttempt[] = [];
  const conversation = [...messages];
  const repairs = Math.max(0, Math.floor(options.repairAttempts ?? 1));
  for (let i = 0; ; i++) {
    const response = await client.complete({ messages: conversation, maxTokens: options.maxTokens ?? 1_500, temperature: 0, purpose });
    const parsed = parse(response.text);
    attempts.push({ ...attemptOf(response), ...(parsed.ok ? {} : { error: parsed.error }) });
    if (parsed.ok) return { ok: true, value: parsed.value, attempts };
    if (i >= repairs) return { ok: false, error: parsed.error, attempts };
    conversation.push({ role: "assistant", content: response.text }, repairMessage(parsed.error.message));
  }
}

function attemptOf(response: LlmResponse): JudgeAttempt {
  return {
    raw: response.text,
    model: response.model,
    ...(response.inputTokens !== undefined ? { inputTokens: response.inputTokens } : {}),
    ...(response.outputTokens !== undefined ? { outputTokens: response.outputTokens } : {}),
    ...(response.cachedInputTokens !== undefined ? { cachedInputTokens: response.cachedInputTokens } : {}),
  };
}
