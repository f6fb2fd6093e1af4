import { IssueList, type Importer } from "../importer";
import { hasJsonKey, isRecord, jsonKind, num, readLocatedJsonDocument, str, type LocatedJson } from "../json-lines";
import type { ParseResult, Session } from "../model";
import { SessionBuilder, uniqueSessionId } from "../session-builder";
import type { TraceSource } from "../source";
import { addOpenAiChatMessage } from "./openai-messages";

/**
 * tau-bench results (`historical_trajectories/*.json`, `tool-calling-*.json`): one JSON array whose
 * elements are episodes `{task_id, reward, info, traj, trial}`; `traj` is a Chat Completions message
 * list (system policy, LLM-simulated customer as `user`, agent tool calls and `tool` results).
 *
 * Every episode becomes one session with id `task-<task_id>-trial-<trial>`. The files carry no
 * per-message model or timestamps; the agent model is recovered from the file name when it names one.
 */
export const tauBenchImporter: Importer = {
  format: "tau_bench_traj",
  label: "tau-bench trajectories",
  detect: detectTauBench,
  parse: parseTauBench,
};

const EPISODE_SHAPE = "{task_id, reward, info, traj, trial}";

/** An array whose first element has `task_id` (+ `traj`, `reward`): the episode list. */
function detectTauBench(_name: string, head: string): number {
  if (!/^\uFEFF?\s*\[\s*\{/.test(head) || !hasJsonKey(head, "task_id")) return 0;
  let score = 0.5;
  if (hasJsonKey(head, "traj")) score += 0.3;
  if (hasJsonKey(head, "reward")) score += 0.1;
  if (hasJsonKey(head, "trial")) score += 0.05;
  return score;
}

interface EpisodeContext {
  file: string;
  doc: LocatedJson;
  issues: IssueList;
  model: string | undefined;
  usedIds: Set<string>;
}

async function parseTauBench(source: TraceSource): Promise<ParseResult> {
  const issues = new IssueList(source.name);
  // Depth 3 locates `[episode].traj[message]`.
  const doc = await readLocatedJsonDocument(source, issues, 3);
  const sessions: Session[] = [];
  if (doc && !Array.isArray(doc.value)) {
    issues.error(doc.lineOf(""), `expected a JSON array of episodes, found ${jsonKind(doc.value)}`, undefined, `[${EPISODE_SHAPE}, …]`);
  } else if (doc && Array.isArray(doc.value)) {
    const context: EpisodeContext = { file: source.name, doc, issues, model: modelFromFileName(source.name), usedIds: new Set() };
    doc.value.forEach((episode, i) => {
      const session = parseEpisode(episode, i, context);
      if (session) sessions.push(session);
    });
  }
  return { format: "tau_bench_traj", sessions, issues: issues.items };
}

/** One episode → one session; an episode without a `traj` array is reported and skipped. */
function parseEpisode(raw: unknown, index: number, context: EpisodeContext): Session | undefined {
  const { doc, issues, file } = context;
  const field = `[${index}]`;
  const line = doc.lineOf(field);
  if (!isRecord(raw)) {
    issues.error(line, `episode is ${jsonKind(raw)}, not an object`, field, EPISODE_SHAPE);
    return undefined;
  }
  if (!Array.isArray(raw.traj)) {
    const found = raw.traj === undefined ? "episode has no traj" : `traj is ${jsonKind(raw.traj)}`;
    issues.error(doc.lineOf(`${field}.traj`), `${found}; episode skipped`, `${field}.traj`, "an array of Chat Completions messages");
    return undefined;
  }
  const taskId = idPart(raw.task_id);
  if (taskId === undefined) issues.warn(line, "episode has no task_id; its id uses its position instead", `${field}.task_id`);
  const builder = new SessionBuilder(uniqueSessionId(episodeId(taskId, idPart(raw.trial), index), context.usedIds), "tau_bench_traj");
  builder.noteModel(context.model);
  raw.traj.forEach((message, j) => {
    const where = `${field}.traj[${j}]`;
    addOpenAiChatMessage(builder, message, { file, line: doc.lineOf(where), field: where }, issues);
  });
  return builder.build({ meta: episodeMeta(raw) });
}

function idPart(value: unknown): string | undefined {
  return str(value) ?? num(value)?.toString();
}

function episodeId(taskId: string | undefined, trial: string | undefined, index: number): string {
  if (taskId === undefined) return `episode-${index}`;
  return trial === undefined ? `task-${taskId}` : `task-${taskId}-trial-${trial}`;
}

function episodeMeta(raw: Record<string, unknown>): Record<string, string | number> {
  const meta: Record<string, string | number> = {};
  const taskId = str(raw.task_id) ?? num(raw.task_id);
  if (taskId !== undefined) meta.taskId = taskId;
  const trial = num(raw.trial);
  if (trial !== undefined) meta.trial = trial;
  const reward = num(raw.reward);
  if (reward !== undefined) meta.reward = reward;
  return meta;
}

/**
 * The agent model named by a tau-bench result file: historical files are `<model>-<domain>.json`
 * (`gpt-4o-airline.json`), run outputs `<strategy>-<model>-<temperature>_range_…json`
 * (`tool-calling-gpt-4o-0.0_range_0--1_user-gpt-4o-llm_0930.json`). Undefined for other names.
 */
export function modelFromFileName(name: string): string | undefined {
  const base = (name.split(/[\\/]/).pop() ?? name).replace(/\.json$/i, "");
  const run = /^(?:tool-calling|act|react|few-shot)-(.+?)-\d+(?:\.\d+)?_range_/.exec(base);
  if (run) return run[1];
  return /^(.+)-(?:airline|retail)$/.exec(base)?.[1];
}
