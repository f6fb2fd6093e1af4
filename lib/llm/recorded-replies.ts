import { z } from "zod";
import { clientIdFor, type LlmClient, type LlmPurpose, type LlmResponse } from "./types";
import { LLM_USAGE_PURPOSES } from "./usage";

/** One answer a model gave, with what it was asked for: enough to give the same answer again. */
export interface RecordedReply {
  purpose: LlmPurpose;
  response: LlmResponse;
}

/** A walk's recorded answers and the id of the client that gave them (a replay answers under it). */
export interface LlmRecording {
  client: string;
  replies: RecordedReply[];
}

const count = z.number().nonnegative().optional();

/** A stored recording per policy id, checked before a replay trusts it (a row is data, not code). */
export const LlmRecordingsSchema = z.record(
  z.string(),
  z.strictObject({
    client: z.string(),
    replies: z.array(
      z.strictObject({
        purpose: z.enum(LLM_USAGE_PURPOSES),
        response: z.strictObject({
          text: z.string(),
          model: z.string(),
          inputTokens: count,
          outputTokens: count,
          cachedInputTokens: count,
          costUsd: count,
        }),
      }),
    ),
  }),
);

/**
 * A client that passes every call to `inner` and keeps each answer, in order. A rollout run wraps
 * its model client in one per policy walk and stores the replies, so the walk can be repeated later
 * without asking the model again (which costs money and may answer differently).
 */
export function recordingLlmClient(inner: LlmClient, purpose: LlmPurpose): { client: LlmClient; recording: LlmRecording } {
  const replies: RecordedReply[] = [];
  const client: LlmClient = {
    id: inner.id,
    ...(inner.idFor ? { idFor: (purpose: LlmPurpose) => inner.idFor!(purpose) } : {}),
    complete: async (request) => {
      const response = await inner.complete(request);
      replies.push({ purpose: request.purpose, response });
      return response;
    },
  };
  return { client, recording: { client: clientIdFor(inner, purpose), replies } };
}

/** Thrown when a repeated walk asks for an answer the recording does not have in that place. */
export class ReplayMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ReplayMismatchError";
  }
}

/**
 * A client that answers from a recording, in order, and never calls a model: the same walk over
 * the same session asks the same questions in the same order, so it gets the same answers. A walk
 * that asks more often, or for another purpose, than the recording holds has diverged (the session
 * or the engine changed since), and the call throws `ReplayMismatchError` instead of inventing one.
 */
export function replayingLlmClient(recording: LlmRecording): LlmClient {
  const { replies } = recording;
  let next = 0;
  return {
    id: recording.client,
    complete: (request) => {
      const reply = replies[next];
      if (!reply) return Promise.reject(new ReplayMismatchError(`the walk asked the model ${next + 1} times; the run recorded ${replies.length} answers`));
      if (reply.purpose !== request.purpose)
        return Promise.reject(
          new ReplayMismatchError(`answer ${next + 1} of the recording was for the ${reply.purpose}, the walk asked for the ${request.purpose}`),
        );
      next++;
      return Promise.resolve(reply.response);
    },
  };
}
