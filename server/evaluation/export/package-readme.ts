/** What the README of a package states about its run (everything else in it is fixed text). */
export interface ReadmeFacts {
  runId: string;
  name: string;
  judge: string;
  /** The run's replay cut levels (percent) and trigger level: what `tracefold eval` must be given to cut and pressure alike. */
  cutLevels: readonly number[];
  triggerLevel: number;
  /** The harness settings every policy ran under: pointer style, sweep budgets (percent removed), matched reference. */
  pointers: string;
  sweep?: readonly number[];
  match?: string;
  sessions: number;
  units: number;
  failedUnits: number;
  redactions: number;
  plannerOutputs: number;
  unavailablePatches: number;
  notReproduced: number;
  exportedAt: string;
}

/**
 * The package's README: what each file is, how to check the figures, and what a reproduction can and
 * cannot redo — the items seed 000's Limitations section lists (sanitized fixtures, planner outputs,
 * candidate patches, token estimates, prompt templates, judge outputs, a recompute script).
 */
export function packageReadme(f: ReadmeFacts): string {
  return [
    `# Tracefold evaluation run: ${f.name}`,
    "",
    `Run \`${f.runId}\`, judge \`${f.judge}\`, ${f.sessions} sessions, ${f.units} units (session × cut × policy × budget), ${f.failedUnits} failed. Exported ${f.exportedAt}.`,
    "",
    `Harness: pointers \`${f.pointers}\`; ${f.sweep ? `sweep ${f.sweep.join(", ")} (% of each prefix removed)` : "no sweep"}; ${f.match ? `budgets matched to \`${f.match}\`` : "no matched budgets"}. Every policy also ran at its own settings.`,
    "",
    "## Check the figures",
    "",
    "```bash",
    "node recompute.mjs   # Node 18+, no dependencies",
    "```",
    "",
    "It recomputes every aggregate from `settings.json`, `judge-outputs.jsonl` and `token-estimates.jsonl`, prints",
    "the table and exits 0 only when every figure equals `aggregates.json`: per policy at its own settings, prune %,",
    "token-weighted prune %, net prune % (after the future restores what it needs: each sidecar's tokens plus one",
    "call), no-impact %, visible % and restorable % each with its Wilson 95% interval, restores per cut, failures per",
    "category and failed units; judged sessions and cuts; the trade-off curves (the same figures per sweep budget);",
    "the matched comparison (each policy at the reference's view size, and the paired difference against it in",
    "points with McNemar's exact p and the percentile bootstrap interval over sessions, redrawn with the same seeded",
    "generator: mulberry32, seed 16, 2,000 replicates, whole sessions resampled in file order); the judge",
    "sensitivity variants. Each unit's pruning and net pruning are checked against its tokens and restores.",
    "",
    "The three verdicts of a unit: **visible** (every value the future used is verbatim in the view), **restorable**",
    "(nothing lost: what is not visible sits in a sidecar whose digest the view names), **lost** otherwise; the",
    "headline `noImpact` counts cuts where nothing was lost.",
    "",
    "## Files",
    "",
    "| file | what |",
    "|---|---|",
    "| `settings.json` | the run's stored settings (suite, policies and params, judge, trigger level, cut levels, tokenizer, pointer style, sweep budgets, matched reference) and the evaluated session ids |",
    "| `aggregates.json` | the figures the studio shows for this run: per policy, curves, matched comparison, judge sensitivity (lib/evaluation aggregate.ts, curves.ts, matched.ts, sensitivity.ts) |",
    "| `judge-outputs.jsonl` | one line per unit: budget (null at the policy's own settings), verdict (seed 000 Listing 3 + evidence, restores), noImpact, visibleNoImpact, restorableNoImpact, uncertain, lost dependencies per category and per kind, or the unit's error |",
    "| `token-estimates.jsonl` | one line per judged unit: budget, tokenizer, window, target view size, prefix tokens \\|C\\|, tokens after \\|C′\\|, pruning rate, restores, restore tokens, net pruning rate |",
    "| `candidate-patches.jsonl` | one line per judged unit: the policy's actions per object (target, action, rule, reason, tokens), refused actions, summary text |",
    "| `planner-outputs/<policy>/<session>-cut<k>[-<budget>].xml` | the Self-GC planner's XML plan at each self-gc unit |",
    "| `prompts/` | the LLM planner contract and the single and A/B judge contracts, as sent |",
    "| `fixtures/sessions.tracefold.jsonl` | the evaluated sessions, sanitized, in Tracefold JSONL (`tracefold import` reads it) |",
    "| `fixtures/redaction-report.json` | every redacted secret: session, message, part, field, offsets, kind, fingerprint (never the secret) |",
    "| `recompute.mjs` | the check above |",
    "",
    "## What a reproduction can redo",
    "",
    `- Replay: import the fixtures and run \`tracefold eval --cut-levels ${f.cutLevels.join(",")} --trigger ${f.triggerLevel} --pointers ${f.pointers}${f.sweep ? ` --sweep ${f.sweep.join(",")}` : ""}${f.match ? ` --match ${f.match}` : ""}\` with the settings above (the cut levels decide which cuts exist; other levels judge other cuts than the stored units). ${f.redactions} secret(s) were replaced by \`[REDACTED:<kind>]\` placeholders; where one sat in the prefix, token counts and so the window at that cut can differ slightly from the stored figures.`,
    `- Candidate patches were regenerated from the unredacted sessions by replaying the run's settings over its stored units (each unit's cut, window, params and budget; policies are deterministic); ${f.notReproduced} of them differ from the stored tokens after, and ${f.unavailablePatches} could not be regenerated offline (an LLM planner). Their text fields are redacted like the fixtures.`,
    `- Planner outputs: ${f.plannerOutputs} Self-GC plan(s).`,
    "- LLM judge verdicts are what the configured model answered; rerunning them needs the same model and gives the same only at temperature 0 with a deterministic server.",
    "",
  ].join("\n");
}
