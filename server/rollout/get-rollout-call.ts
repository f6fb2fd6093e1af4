import { findPolicy } from "@/lib/compaction/policies/registry";
import type { ActionKind } from "@/lib/compaction/projection/types";
import type { RolloutSessionReport } from "@/lib/rollout/rollout-report";
import { LlmRecordingsSchema, replayingLlmClient, ReplayMismatchError } from "@/lib/llm/recorded-replies";
import { rolloutViewAt, type RolloutViewAt } from "@/lib/rollout/rollout-view-at";
import { partBody } from "@/lib/trace/part-body";
import type { Message, PartType, Role } from "@/lib/trace/model";
import type { Db } from "../db/client";
import { loadSessionForWalk } from "../trace/session/load-analyzed-session";
import { parseStoredRolloutSettings, rolloutOptions } from "./rollout-settings";

/** Characters of one part sent to the page; a longer part is cut there (the session viewer has it whole). */
export const CALL_PART_MAX_CHARS = 50_000;

/** One part of a prompt message as the page renders it: text only, never HTML. */
export interface CallPart {
  type: PartType;
  /** The action a commit took on it (absent: the original part, unchanged). */
  action?: ActionKind;
  /** A control-plane reminder the harness appended (a fold recovery pointer), not trace content. */
  reminder?: boolean;
  name?: string;
  isError?: boolean;
  text: string;
  /** Length and lines of the whole text; `truncated` when `text` was cut at CALL_PART_MAX_CHARS. */
  length: number;
  lines: number;
  truncated: boolean;
}

export interface CallMessage {
  role: Role;
  /** Original message index, or what the harness inserted. */
  origin: number | "summary" | "reminder";
  /** In the committed head (the view after the last commit) or after it (original messages since). */
  inHead: boolean;
  parts: CallPart[];
}

/**
 * The page "the view the agent had at a call" of one policy's rollout of one session: lib's
 * `RolloutViewAt` figures, with the messages as text parts and the session's database id and title.
 */
export interface RolloutCallView extends Pick<
  RolloutViewAt,
  "policy" | "window" | "call" | "calls" | "message" | "round" | "compacted" | "tokens" | "lost" | "lostCalls"
> {
  run: { id: string; name: string };
  sessionId: string;
  title: string;
  /** False when the re-walk's prompt differs from what the run stored for this call (the session changed since). */
  matchesRun: boolean;
  messages: CallMessage[];
  /** The restores in effect, each payload as text parts. */
  restores: (Omit<RolloutViewAt["restores"][number], "texts" | "message"> & { texts: CallPart[] })[];
  step: CallMessage[];
}

export type RolloutCallOutcome =
  | { ok: true; data: RolloutCallView }
  | {
      ok: false;
      code: "not_found" | "session_not_in_run" | "policy_not_in_run" | "not_walked" | "session_deleted" | "call_not_found" | "not_replayable";
      message: string;
      /** The run, for the page's way back (absent when there is no such run). */
      run?: { id: string; name: string };
    };

/**
 * Re-walks one session of a rollout run under one of its policies — lib/rollout's `rolloutViewAt`,
 * with the run's stored settings and the window the run used for the session — and returns the
 * prompt the walk gave the model at `call` (0-based), with the values lost there and the restores in
 * effect. The run must be done with the session (its stored walk is what the page is compared to).
 */
export async function getRolloutCall(db: Db, input: { runId: string; sessionId: string; policy: string; call: number }): Promise<RolloutCallOutcome> {
  const row = await db.rolloutRun.findUnique({ where: { id: input.runId }, select: { id: true, name: true, settings: true, sessionIds: true } });
  if (!row) return { ok: false, code: "not_found", message: "there is no such rollout run" };
  const run = { id: row.id, name: row.name };
  const settings = parseStoredRolloutSettings(row.settings);
  if (!(JSON.parse(row.sessionIds) as string[]).includes(input.sessionId))
    return { ok: false, code: "session_not_in_run", message: "this session is not part of the rollout run", run };
  const policy = settings.policies.includes(input.policy) ? findPolicy(input.policy) : undefined;
  if (!policy)
    return {
      ok: false,
      code: "policy_not_in_run",
      message: `the run did not roll out policy ${JSON.stringify(input.policy)}: it has ${settings.policies.join(", ")}`,
      run,
    };
  const stored = await db.rolloutRunSession.findUnique({
    where: { runId_sessionId: { runId: run.id, sessionId: input.sessionId } },
    select: { report: true, llmReplies: true },
  });
  if (!stored) return { ok: false, code: "not_walked", message: "the run has not rolled out this session (yet)", run };
  const report = JSON.parse(stored.report) as RolloutSessionReport;
  // A policy that asked a model (self-gc with the LLM planner) walks again on the answers the run
  // recorded: asking the model again would cost money and may plan differently.
  const recordings = stored.llmReplies ? LlmRecordingsSchema.safeParse(JSON.parse(stored.llmReplies)) : undefined;
  if (recordings && !recordings.success)
    return {
      ok: false,
      code: "not_replayable",
      message: `the planner's answers stored with this session are unreadable (${recordings.error.issues[0]?.path.join(".")}: ${recordings.error.issues[0]?.message}), so the walk cannot be repeated without asking the model again`,
      run,
    };
  const recording = recordings?.data[policy.id];
  if (settings.planner === "llm" && policy.id === "self-gc" && !recording)
    return {
      ok: false,
      code: "not_replayable",
      message:
        "self-gc planned with the LLM planner in this run, which did not record the planner's answers (it predates that), and walking the session again would ask the model again (and may plan differently), so this view is not shown",
      run,
    };
  const loaded = await loadSessionForWalk(db, input.sessionId);
  if (!loaded)
    return {
      ok: false,
      code: "session_deleted",
      message: "the session was deleted after the run: its figures stay in the run, but its messages are gone",
      run,
    };
  const engine = { ...rolloutOptions(settings), window: report.window, ...(recording ? { llm: replayingLlmClient(recording) } : {}) };
  let view: RolloutViewAt | undefined;
  try {
    view = await rolloutViewAt({ session: loaded.session, tokenizer: loaded.tokenizer }, policy, engine, input.call);
  } catch (error) {
    if (!(error instanceof ReplayMismatchError)) throw error;
    return {
      ok: false,
      code: "not_replayable",
      message: `walking the session again on the planner's recorded answers went another way (${error.message}): the session or the engine changed since the run`,
      run,
    };
  }
  const calls = report.policies.find((p) => p.id === policy.id)?.series.length ?? 0;
  if (!view)
    return { ok: false, code: "call_not_found", message: `the session has no call ${input.call + 1}: it has ${calls} call${calls === 1 ? "" : "s"}`, run };
  const series = report.policies.find((p) => p.id === policy.id)?.series[view.call];
  const title =
    (await db.traceSession.findUnique({ where: { id: input.sessionId }, select: { title: true } }))?.title ?? loaded.session.title ?? input.sessionId;
  return {
    ok: true,
    data: {
      run,
      sessionId: input.sessionId,
      title,
      policy: policy.id,
      window: view.window,
      call: view.call,
      calls: view.calls,
      message: view.message,
      round: view.round,
      compacted: view.compacted,
      tokens: view.tokens,
      matchesRun: series !== undefined && series[0] === view.tokens.without && series[1] === view.tokens.with && view.calls === calls,
      messages: view.messages.map((m) => callMessage(m.message, m.origin, m.inHead, m.actions, m.added)),
      restores: view.restores.map(({ round, call, target, sha256, tokens, cost, texts }) => ({
        round,
        call,
        target,
        sha256,
        tokens,
        cost,
        texts: texts.map((text) => callPart("text", text)),
      })),
      lost: view.lost,
      step: view.step.map((m) => callMessage(m, m.index, false, [], [])),
      lostCalls: view.lostCalls,
    },
  };
}

function callMessage(
  message: Message,
  origin: CallMessage["origin"],
  inHead: boolean,
  actions: readonly (ActionKind | undefined)[],
  added: readonly boolean[],
): CallMessage {
  return {
    role: message.role,
    origin,
    inHead,
    parts: message.parts.map((part, i) => ({
      ...callPart(part.type, partBody(part)),
      ...(actions[i] ? { action: actions[i] } : {}),
      // As the replay view marks them: a text the harness added with a fold is its recovery reminder.
      ...(added[i] && part.type === "text" && actions[i] === "fold" ? { reminder: true } : {}),
      ...(part.type === "tool_call" || (part.type === "tool_result" && part.name) ? { name: part.name! } : {}),
      ...(part.type === "tool_result" && part.isError ? { isError: true } : {}),
    })),
  };
}

function callPart(type: PartType, full: string): CallPart {
  const text = full.length > CALL_PART_MAX_CHARS ? full.slice(0, CALL_PART_MAX_CHARS) : full;
  const lines = full.length === 0 ? 0 : full.split("\n").length - (full.endsWith("\n") ? 1 : 0);
  return { type, text, length: full.length, lines, truncated: text.length < full.length };
}
