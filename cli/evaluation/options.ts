import { POLICIES, findPolicy } from "@/lib/compaction/policies/registry";
import type { Policy } from "@/lib/compaction/policies/types";
import { CutLevelsSchema, parseCutLevelsText } from "@/lib/evaluation/cuts/cut-levels";
import { parseSuiteFilterText, SuiteFilterSyntaxError } from "@/lib/evaluation/suites/suite-filter-text";
import type { SuiteFilter } from "@/lib/evaluation/suites/suite-filter";
import type { SuiteSpec } from "@/lib/evaluation/suites/suites";
import { FORMAT_IDS, type FormatId } from "@/lib/trace/model";
import { isTokenizerId, TOKENIZER_IDS, type TokenizerId } from "@/lib/tokens/tokenizer";
import { ZodError } from "zod";
import { parseSweepText } from "@/lib/evaluation/cuts/budget";
import { POINTER_STYLES, type PointerStyle } from "@/lib/compaction/projection/pointers";
import { parseCommandArgs, UsageError } from "../args";
import { evalCommand } from "../usage";
import { BREAKDOWN_KEYS, type BreakdownKey } from "./breakdown";

export interface EvalOptions {
  inputs: string[];
  policies: Policy[];
  judge: "dependency" | "llm";
  /** `--planner llm`: Self-GC plans with the configured model (its `planner` parameter), else the embedded rule-based planner. */
  planner: "rule-based" | "llm";
  suite: "all" | "hard";
  /** `--filter`: narrows the suite (the Hard Set is then ranked within the filtered sessions). */
  filter?: SuiteFilter;
  triggerLevel: number;
  /** `--cut-levels`: the token shares (percent) the protocol cuts each session at; default 50,70,90. */
  cutLevels: number[];
  compare?: [string, string];
  /** Adds per-group rows (`breakdown`) by the session's workload or trace format. */
  by?: BreakdownKey;
  format?: FormatId;
  tokenizer?: TokenizerId;
  /** LLM judge calls in flight (default 4). */
  concurrency: number;
  json: boolean;
  /** Pointer style of every fold (harness setting; default semantic). */
  pointers: PointerStyle;
  /** `--sweep`: target shares of the prefix removed (whole percents) every policy also runs at. */
  sweep?: number[];
  /** `--match`: the policy whose per-cut view size every policy is also compacted to. */
  match?: string;
  /** `--sensitivity`: rankings under judge variants. */
  sensitivity: boolean;
  /** `--export-views`: one JSON line per judged unit (docs/views.schema.json). */
  exportViews?: string;
  /** `--calibrate`: a gold set of labelled units the judge's agreement is measured against. */
  calibrate?: string;
}

/** `tracefold eval`'s command line, validated: every bad value is a UsageError naming the flag. */
export function parseEvalOptions(argv: string[]): EvalOptions {
  const { values, positionals } = parseCommandArgs(argv, evalCommand);
  if (positionals.length === 0) throw new UsageError("eval needs at least one trace file or directory");
  const policies = parsePolicies(values.policies);
  if (values.judge !== "dependency" && values.judge !== "llm") throw new UsageError(`unknown --judge ${values.judge}; expected dependency or llm`);
  if (values.planner !== "rule-based" && values.planner !== "llm") throw new UsageError(`unknown --planner ${values.planner}; expected rule-based or llm`);
  if (values.planner === "llm" && !policies.some((p) => p.id === "self-gc"))
    throw new UsageError("--planner llm chooses Self-GC's planner: add self-gc to --policies");
  if (values.suite !== "all" && values.suite !== "hard") throw new UsageError(`unknown --suite ${values.suite}; expected all or hard`);
  const filter = values.filter === undefined ? undefined : parseFilter(values.filter);
  const triggerLevel = Number(values.trigger);
  if (!/^\d*\.?\d+$/.test(values.trigger) || !(triggerLevel > 0 && triggerLevel <= 1)) {
    throw new UsageError(
      `--trigger must be the share of the window the prefix fills at a cut, above 0 and at most 1 (e.g. 0.9), got ${JSON.stringify(values.trigger)}`,
    );
  }
  const cutLevels = parseCutLevels(values["cut-levels"]);
  if (values.by !== undefined && !(BREAKDOWN_KEYS as readonly string[]).includes(values.by))
    throw new UsageError(`unknown --by ${values.by}; expected ${BREAKDOWN_KEYS.join(" or ")}`);
  if (values.format !== undefined && !(FORMAT_IDS as readonly string[]).includes(values.format)) {
    throw new UsageError(`unknown --format ${values.format}; expected one of ${FORMAT_IDS.join(", ")}`);
  }
  if (values.tokenizer !== undefined && !isTokenizerId(values.tokenizer))
    throw new UsageError(`unknown --tokenizer ${values.tokenizer}; expected ${TOKENIZER_IDS.join(", ")}`);
  if (!/^[1-9]\d*$/.test(values.concurrency) || Number(values.concurrency) > 64)
    throw new UsageError(`--concurrency must be a whole number from 1 to 64, got ${JSON.stringify(values.concurrency)}`);
  if (!(POINTER_STYLES as readonly string[]).includes(values.pointers))
    throw new UsageError(`unknown --pointers ${values.pointers}; expected ${POINTER_STYLES.join(" or ")}`);
  if (values.match !== undefined && !policies.some((p) => p.id === values.match)) {
    throw new UsageError(`--match ${values.match}: not among the evaluated --policies (${policies.map((p) => p.id).join(", ")})`);
  }
  if (
    values.judge === "llm" &&
    (values.sweep !== undefined || values.match !== undefined || values.sensitivity || values["export-views"] !== undefined || values.calibrate !== undefined)
  ) {
    throw new UsageError("--sweep, --match, --sensitivity, --export-views and --calibrate need the dependency judge (--judge dependency)");
  }
  return {
    inputs: positionals,
    policies,
    pointers: values.pointers as PointerStyle,
    ...(values.sweep !== undefined ? { sweep: parseSweep(values.sweep) } : {}),
    ...(values.match !== undefined ? { match: values.match } : {}),
    sensitivity: values.sensitivity,
    ...(values["export-views"] !== undefined ? { exportViews: values["export-views"] } : {}),
    ...(values.calibrate !== undefined ? { calibrate: values.calibrate } : {}),
    judge: values.judge,
    planner: values.planner,
    suite: values.suite,
    ...(filter ? { filter } : {}),
    triggerLevel,
    cutLevels,
    ...(values.compare !== undefined ? { compare: parseCompare(values.compare, policies) } : {}),
    ...(values.by !== undefined ? { by: values.by as BreakdownKey } : {}),
    ...(values.format !== undefined ? { format: values.format as FormatId } : {}),
    ...(values.tokenizer !== undefined && isTokenizerId(values.tokenizer) ? { tokenizer: values.tokenizer } : {}),
    concurrency: Number(values.concurrency),
    json: values.json,
  };
}

/** The suite spec lib's selectSuite takes: the filter alone, or the Hard Set of the filtered pool. */
export function suiteSpec(options: Pick<EvalOptions, "suite" | "filter">): SuiteSpec {
  if (options.suite === "hard") return options.filter ? { kind: "hard", filter: options.filter } : { kind: "hard" };
  return options.filter ? { kind: "filter", filter: options.filter } : { kind: "all" };
}

function parseFilter(text: string): SuiteFilter {
  try {
    return parseSuiteFilterText(text);
  } catch (error) {
    if (error instanceof SuiteFilterSyntaxError) throw new UsageError(`--filter: ${error.message}`);
    throw error;
  }
}

/** `--cut-levels 10,20,30`: every problem of lib's CutLevelsSchema, each with the level it concerns. */
function parseCutLevels(text: string): number[] {
  const parsed = CutLevelsSchema.safeParse(parseCutLevelsText(text));
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => (issue.path.length > 0 ? `level ${Number(issue.path[0]) + 1}: ${issue.message}` : issue.message));
  throw new UsageError(
    `--cut-levels takes whole percents from 1 to 99, strictly increasing, comma-separated (e.g. 10,20,30); got ${JSON.stringify(text)}: ${problems.join("; ")}`,
  );
}

/** `--sweep 20,40,60`: whole percents 1–95, distinct, each problem named with its position. */
function parseSweep(text: string): number[] {
  try {
    return parseSweepText(text);
  } catch (error) {
    if (!(error instanceof ZodError)) throw error;
    const problems = error.issues.map((issue) => (issue.path.length > 0 ? `budget ${Number(issue.path[0]) + 1}: ${issue.message}` : issue.message));
    throw new UsageError(
      `--sweep takes target shares of the prefix removed, whole percents from 1 to 95, comma-separated (e.g. 20,40,60); got ${JSON.stringify(text)}: ${problems.join("; ")}`,
    );
  }
}

/** `all`, or ids separated by commas, in the order given (duplicates dropped). */
export function parsePolicies(value: string): Policy[] {
  if (value.trim() === "all") return [...POLICIES];
  const ids = [
    ...new Set(
      value
        .split(",")
        .map((id) => id.trim())
        .filter(Boolean),
    ),
  ];
  if (ids.length === 0) throw new UsageError("--policies needs `all` or at least one policy id");
  const unknown = ids.filter((id) => !findPolicy(id));
  if (unknown.length > 0) {
    throw new UsageError(
      `unknown policy ${unknown.map((id) => JSON.stringify(id)).join(", ")}; expected all or ids from: ${POLICIES.map((p) => p.id).join(", ")}`,
    );
  }
  return ids.map((id) => findPolicy(id)!);
}

function parseCompare(value: string, policies: readonly Policy[]): [string, string] {
  const ids = value.split(",").map((id) => id.trim());
  if (ids.length !== 2 || !ids[0] || !ids[1] || ids[0] === ids[1])
    throw new UsageError(`--compare takes two different policy ids, A,B; got ${JSON.stringify(value)}`);
  for (const id of ids) {
    if (!policies.some((p) => p.id === id)) throw new UsageError(`--compare ${id}: not among the evaluated --policies`);
  }
  return [ids[0], ids[1]];
}
