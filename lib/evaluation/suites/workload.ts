import type { ContextIndex } from "../../compaction/context/objects";
import { foldToolName, normaliseToolName } from "../../compaction/context/tool-names";

/**
 * A session's workload from its tool mix (issue 4: breakdowns by browser, shell, web fetch, file,
 * code), so evaluation figures can be read per kind of work — seed 000 reports that tool pruning
 * and turn folding trade places between browser/shell-heavy and document/code-heavy sessions.
 *
 * Each tool result counts once toward one class:
 * - `browser` — page snapshots and browser actions (`browser`, `browser_*` such as Playwright MCP's, `playwright*`, `puppeteer*`);
 * - `shell` — command execution (`exec`: Bash, shell, exec_command, …; also kill/output of shells);
 * - `web` — web fetch and search (`web_fetch`, `web_search`, and `curl` / `wget` as tools);
 * - `file` — file reads, writes, edits and searches (`read`, `write`, `edit`, `grep`, `glob`, …);
 * - `code` — code interpreters (the raw name is `python`, `ipython`, `execute_ipython_cell`, `code_run`, …),
 *   which the tool-name normaliser folds into `exec` but GenericAgent's tool classes keep apart;
 * - `other` — every other tool (domain APIs such as tau-bench's, decompilers, unknown tools).
 * Agent-loop bookkeeping (`think`, `todo`, `task`, `submit`, …) is no workload and is not counted.
 */
export const WORKLOAD_CLASSES = ["browser", "shell", "web", "file", "code", "other"] as const;
export type WorkloadClass = (typeof WORKLOAD_CLASSES)[number];

/** A session's label: its dominant class, `mixed` when none dominates, `none` without counted tool results. */
export const WORKLOADS = [...WORKLOAD_CLASSES, "mixed", "none"] as const;
export type Workload = (typeof WORKLOADS)[number];

/**
 * A class dominates when it holds more than this share of the counted tool results: a strict
 * majority, so at most one class can, and a shell/file split of a typical coding session reads as
 * `mixed` rather than whichever side happens to lead by one call.
 */
export const DOMINANT_SHARE = 0.5;

const BY_NAME: Record<string, WorkloadClass | null> = {
  browser: "browser",
  exec: "shell",
  killbash: "shell",
  killshell: "shell",
  web_fetch: "web",
  web_search: "web",
  curl: "web",
  wget: "web",
  read: "file",
  write: "file",
  edit: "file",
  grep: "file",
  glob: "file",
  insert: "file",
  str_replace_based_edit_tool: "file",
  think: null,
  todo: null,
  task: null,
  taskoutput: null,
  askuserquestion: null,
  submit: null,
  final_answer: null,
};
const CODE = new Set([
  "python",
  "ipython",
  "execute_ipython_cell",
  "code_run",
  "run_python",
  "python_interpreter",
  "code_interpreter",
  "jupyter",
  "execute_code",
  "run_code",
]);
const BROWSER_PREFIX = /^(browser_|playwright|puppeteer)/;

/**
 * The class of one tool result from its normalised name (`tool`) and the name the trace wrote
 * (`rawTool`, needed to tell a code interpreter from a shell); null for bookkeeping tools.
 */
export function toolClass(tool: string, rawTool?: string | null): WorkloadClass | null {
  const raw = foldToolName(rawTool ?? tool);
  if (CODE.has(raw) || CODE.has(tool)) return "code";
  if (tool in BY_NAME) return BY_NAME[tool]!;
  const normalised = normaliseToolName(tool);
  if (normalised in BY_NAME) return BY_NAME[normalised]!;
  if (BROWSER_PREFIX.test(normalised) || BROWSER_PREFIX.test(raw)) return "browser";
  return "other";
}

/** Tool results of one tool (a ContextObjectRow, a context object, or a grouped count of them). */
export interface ToolUse {
  tool?: string | null;
  rawTool?: string | null;
  /** How many results this entry stands for (default 1). */
  count?: number;
}

export interface WorkloadMix {
  workload: Workload;
  /** Counted tool results per class. */
  counts: Record<WorkloadClass, number>;
  /** Counted tool results (bookkeeping excluded). */
  total: number;
  /** Share of `total` held by the largest class (0 when `total` is 0). */
  share: number;
}

/** Classifies a session from its tool results; ties in the largest class can only happen below the threshold (`mixed`). */
export function classifyWorkload(uses: Iterable<ToolUse>): WorkloadMix {
  const counts = Object.fromEntries(WORKLOAD_CLASSES.map((c) => [c, 0])) as Record<WorkloadClass, number>;
  for (const use of uses) {
    const name = use.tool ?? use.rawTool;
    if (!name) continue;
    const cls = toolClass(name, use.rawTool);
    if (cls) counts[cls] += use.count ?? 1;
  }
  const total = WORKLOAD_CLASSES.reduce((n, c) => n + counts[c], 0);
  if (total === 0) return { workload: "none", counts, total, share: 0 };
  const top = WORKLOAD_CLASSES.reduce((best, c) => (counts[c] > counts[best] ? c : best), WORKLOAD_CLASSES[0]);
  const share = counts[top] / total;
  return { workload: share > DOMINANT_SHARE ? top : "mixed", counts, total, share };
}

/** The workload of an indexed session: its function objects are its tool results. */
export function sessionWorkload(index: ContextIndex): WorkloadMix {
  return classifyWorkload(index.objects.filter((o) => o.kind === "function"));
}
