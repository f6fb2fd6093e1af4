import { z } from "zod";
import { IssueList, type Importer } from "../importer";
import { hasJsonKey, type LocatedJson } from "../json-lines";
import type { ParseResult, Session } from "../model";
import { SessionBuilder, uniqueSessionId } from "../session-builder";
import type { TraceSource } from "../source";
import { readValidatedDocument } from "../validated-document";
import { reportZodIssues } from "../zod-issues";
import { addTau2Message } from "./tau2-messages";

/**
 * tau2-bench simulation results (`data/simulations/*.json`, `results/**.json`): one JSON object
 * `{timestamp, info, tasks, simulations}` (the newer schema adds `simulation_index` and per-message
 * audio fields). `info` names the agent and user-simulator models and the domain with its policy;
 * each simulation `{id, task_id, trial, messages[], reward_info, termination_reason, …}` is one
 * session whose id is the simulation's own uuid.
 *
 * The agent's system prompt is not recorded, but the domain policy it is built from is
 * (`simulations[i].policy` in the newer schema, `info.environment_info.policy` in both): each
 * session opens with it as a `system` message (`meta.tau2Policy`) so the agent's context is counted
 * with the document it is held to. Messages follow in order (see tau2-messages.ts).
 */
export const tau2Importer: Importer = {
  format: "tau2_simulation",
  label: "tau2-bench simulations",
  detect: detectTau2,
  parse: parseTau2,
};

const SHAPE = "{timestamp, info, tasks, simulations[]}";

/** An object whose `info` describes the agent, the user simulator and the environment. */
function detectTau2(_name: string, head: string): number {
  if (!/^\uFEFF?\s*\{/.test(head) || !hasJsonKey(head, "user_info") || !hasJsonKey(head, "agent_info")) return 0;
  let score = 0.6;
  if (hasJsonKey(head, "environment_info")) score += 0.2;
  if (/"implementation"\s*:\s*"user_simulator"/.test(head) || hasJsonKey(head, "simulations")) score += 0.15;
  return score;
}

const named = z.looseObject({ llm: z.string().nullish() }).nullish();
const DocumentSchema = z.looseObject({
  info: z
    .looseObject({
      agent_info: named,
      user_info: named,
      environment_info: z.looseObject({ domain_name: z.string().nullish(), policy: z.string().nullish() }).nullish(),
    })
    .nullish(),
  simulations: z.array(z.unknown()),
});
const SimulationSchema = z.looseObject({
  id: z.string().min(1).nullish(),
  task_id: z.union([z.string(), z.number()]).nullish(),
  trial: z.number().nullish(),
  messages: z.array(z.unknown()),
  policy: z.string().nullish(),
  start_time: z.string().nullish(),
  termination_reason: z.string().nullish(),
  agent_cost: z.number().nullish(),
  user_cost: z.number().nullish(),
  reward_info: z.looseObject({ reward: z.number().nullish() }).nullish(),
});
type Document = z.infer<typeof DocumentSchema>;
type Simulation = z.infer<typeof SimulationSchema>;

async function parseTau2(source: TraceSource): Promise<ParseResult> {
  const issues = new IssueList(source.name);
  // Depth 5 locates `simulations[i].messages[j].role`.
  const doc = await readValidatedDocument(source, issues, DocumentSchema, {
    depth: 5,
    expected: "a tau2 results object",
    invalid: "not a tau2 results file",
    shape: SHAPE,
  });
  const sessions: Session[] = [];
  if (doc) {
    const used = new Set<string>();
    doc.data.simulations.forEach((raw, i) => {
      const session = parseSimulation(raw, i, doc.data, { doc, issues, file: source.name, used });
      if (session) sessions.push(session);
    });
  }
  return { format: "tau2_simulation", sessions, issues: issues.items };
}

interface Context {
  doc: Pick<LocatedJson, "lineOf">;
  issues: IssueList;
  file: string;
  used: Set<string>;
}

function parseSimulation(raw: unknown, i: number, document: Document, context: Context): Session | undefined {
  const { doc, issues, file } = context;
  const field = `simulations[${i}]`;
  const parsed = SimulationSchema.safeParse(raw);
  if (!parsed.success) {
    reportZodIssues(issues, parsed.error, { field, lineOf: doc.lineOf }, "simulation skipped");
    return undefined;
  }
  const simulation = parsed.data;
  const agentModel = document.info?.agent_info?.llm ?? undefined;
  const builder = new SessionBuilder(uniqueSessionId(simulationId(simulation, i), context.used), "tau2_simulation");
  builder.noteModel(agentModel);
  const policy = simulation.policy ?? document.info?.environment_info?.policy;
  if (policy) {
    const policyField = simulation.policy ? `${field}.policy` : "info.environment_info.policy";
    builder.add({ role: "system", parts: [{ type: "text", text: policy }], source: { file, line: doc.lineOf(policyField) }, meta: { tau2Policy: true } });
  }
  simulation.messages.forEach((message, j) => {
    addTau2Message(message, { builder, issues, file, agentModel, where: { field: `${field}.messages[${j}]`, lineOf: doc.lineOf } });
  });
  return builder.build({ ...(simulation.start_time ? { startedAt: simulation.start_time } : {}), meta: simulationMeta(simulation, document) });
}

function simulationId(simulation: Simulation, index: number): string {
  if (simulation.id) return simulation.id;
  if (simulation.task_id === undefined || simulation.task_id === null) return `simulation-${index}`;
  return `task-${simulation.task_id}-trial-${simulation.trial ?? 0}`;
}

function simulationMeta(simulation: Simulation, document: Document): Record<string, string | number> {
  const entries: [string, string | number | null | undefined][] = [
    ["taskId", simulation.task_id],
    ["trial", simulation.trial],
    ["reward", simulation.reward_info?.reward],
    ["terminationReason", simulation.termination_reason],
    ["agentCost", simulation.agent_cost],
    ["userCost", simulation.user_cost],
    ["domain", document.info?.environment_info?.domain_name],
    ["userModel", document.info?.user_info?.llm],
  ];
  return Object.fromEntries(entries.filter((e): e is [string, string | number] => e[1] !== undefined && e[1] !== null));
}
