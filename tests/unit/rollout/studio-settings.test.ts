import assert from "node:assert/strict";
import { test } from "node:test";
import { parseRolloutArgs } from "@/cli/commands/rollout";
import { DEFAULT_ROLLOUT_POLICIES, RolloutSettingsSchema, rolloutOptions, rolloutPolicies } from "@/server/rollout/rollout-settings";

/*
 * The studio's New rollout form takes the CLI's flags as text and reads them with the CLI's parsers,
 * so a run's settings mean exactly what `tracefold rollout` would do with the same flags.
 */
test("the form's defaults are the CLI's defaults, with the four policies the issue compares", () => {
  const settings = RolloutSettingsSchema.parse({ policies: [...DEFAULT_ROLLOUT_POLICIES] });
  assert.deepEqual(settings, {
    policies: ["self-gc", "tool-prune", "oldest-turn", "none"],
    trigger: "90%",
    cacheTtl: "5m",
    prices: "",
    planner: "rule-based",
    hardLimit: false,
  });
  const cli = parseRolloutArgs(["traces/", "--policies", "self-gc,tool-prune,oldest-turn,none"]);
  assert.deepEqual(
    rolloutPolicies(settings).map((p) => p.id),
    cli.policies.map((p) => p.id),
  );
  // The CLI passes no trigger unless given (the engine's default is the same 0.9); the studio always stores one.
  assert.deepEqual(rolloutOptions(settings), { trigger: 0.9, cacheTtlMs: cli.cacheTtlMs });
});

test("every flag reads as the CLI reads it", () => {
  const settings = RolloutSettingsSchema.parse({ policies: ["tool-prune"], window: 64_000, trigger: "0.8", cacheTtl: "1h", prices: "model=gpt-4.1" });
  const cli = parseRolloutArgs(["x", "--policies", "tool-prune", "--window", "64000", "--trigger", "0.8", "--cache-ttl", "1h", "--prices", "model=gpt-4.1"]);
  assert.deepEqual(rolloutOptions(settings), { trigger: cli.trigger, cacheTtlMs: cli.cacheTtlMs, window: cli.window, prices: cli.prices });
  const custom = rolloutOptions(RolloutSettingsSchema.parse({ policies: ["none"], prices: "input=3,output=15", cacheTtl: "none" }));
  assert.deepEqual(custom.prices, { kind: "fixed", prices: { input: 3, output: 15, cachedInput: 3, cacheWrite: 3 }, label: "custom" });
  assert.equal(custom.cacheTtlMs, Number.POSITIVE_INFINITY);
});

test("the LLM planner sets Self-GC's planner parameter as --planner llm does, and needs self-gc", () => {
  const settings = RolloutSettingsSchema.parse({ policies: ["self-gc", "tool-prune"], planner: "llm" });
  const cli = parseRolloutArgs(["x", "--policies", "self-gc,tool-prune", "--planner", "llm"]);
  assert.deepEqual(rolloutOptions(settings).params, cli.params);
  assert.equal(rolloutOptions(RolloutSettingsSchema.parse({ policies: ["self-gc"], planner: "rule-based" })).params, undefined);
  const issues = RolloutSettingsSchema.safeParse({ policies: ["tool-prune"], planner: "llm" }).error?.issues.map((i) => [i.path.join("."), i.message]);
  assert.deepEqual(issues, [["planner", "the LLM planner is Self-GC's planner: add self-gc to the policies"]]);
});

test("the hard limit reads as --hard-limit does; off by default and for runs stored before it", () => {
  const settings = RolloutSettingsSchema.parse({ policies: ["self-gc", "oldest-turn"], hardLimit: true });
  const cli = parseRolloutArgs(["x", "--policies", "self-gc,oldest-turn", "--hard-limit"]);
  assert.equal(cli.hardLimit, true);
  assert.equal(rolloutOptions(settings).hardLimit, true);
  assert.equal(parseRolloutArgs(["x", "--policies", "none"]).hardLimit, false);
  assert.equal(rolloutOptions(RolloutSettingsSchema.parse({ policies: ["none"] })).hardLimit, undefined);
  assert.deepEqual(
    RolloutSettingsSchema.safeParse({ policies: ["none"], hardLimit: "yes" }).error?.issues.map((i) => [i.path.join("."), i.message]),
    [["hardLimit", "the hard limit is on or off"]],
  );
});

test("bad values are refused per field with the CLI's own messages", () => {
  const parsed = RolloutSettingsSchema.safeParse({
    policies: ["tool-prune", "tool-prune", "nope"],
    window: 12.5,
    trigger: "150%",
    cacheTtl: "soon",
    prices: "model=grok-3",
  });
  assert.equal(parsed.success, false);
  const byField = Object.fromEntries(parsed.error!.issues.map((i) => [String(i.path[0]), i.message]));
  assert.match(byField.policies!, /unknown policy nope|listed twice/);
  assert.match(byField.window!, /whole number/);
  assert.match(byField.trigger!, /share of the window above 0 and at most 1/);
  assert.match(byField.cacheTtl!, /expected --cache-ttl as a duration/);
  assert.match(byField.prices!, /no list price for model "grok-3"/);
  assert.equal(RolloutSettingsSchema.safeParse({ policies: [] }).success, false, "at least one policy");
});
