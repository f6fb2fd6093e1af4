import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { readZip } from "../tests/helpers/read-zip";
import { storageStateOf } from "./fixtures/accounts";
import { importForE2e } from "./fixtures/import-session";

/** A real SWE-agent trajectory (37 messages, 18 tool calls): its format is the suite, so only it is evaluated. */
const SWE_AGENT_TRACE = resolve("../shared/traces/swe_agent_traj/SWE-agent__SWE-agent/trajectories/demonstrations/ctf/crypto/katy.traj");
const POLICIES = ["none", "tool-prune", "oldest-turn"];

interface Aggregate {
  id: string;
  n: number;
  noImpact: number;
  prunePct: number;
  noImpactPct: number;
  ci95: [number, number];
}

test.beforeAll(() => {
  importForE2e(SWE_AGENT_TRACE);
});

test.describe("as a reviewer", () => {
  test.use({ storageState: storageStateOf("reviewer") });

  test("starts an evaluation, watches it finish, reads chart and table, drills down to a cut and its replay", async ({ page }) => {
    await page.goto("/evaluations");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Evaluations" }).click();
    const form = page.getByRole("region", { name: "New evaluation" });
    const name = `e2e swe-agent ${Date.now()}`;
    await form.getByLabel("Name (optional)").fill(name);
    await form.getByLabel("Suite format").selectOption("swe_agent_traj");
    for (const id of POLICIES) await form.getByRole("checkbox", { name: id, exact: true }).check();
    await form.getByRole("button", { name: "Start evaluation" }).click();

    await expect(page).toHaveURL(/\/evaluations\/[a-z0-9]+$/);
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    await expect(page.getByTestId("run-status").first()).toHaveText("done", { timeout: 60_000 });
    const total = await page.getByTestId("run-progress-text").first().textContent();
    expect(total).toMatch(/^(\d+) \/ \1$/);

    // The table shows exactly the stored aggregates (what `tracefold eval --json` prints for these units).
    const runId = page.url().split("/").pop()!;
    const body = (await (await page.request.get(`/api/evaluations/${runId}`)).json()) as { data: { aggregates: { policies: Aggregate[] } } };
    const aggregates = body.data.aggregates.policies;
    expect(aggregates.map((a) => a.id).sort()).toEqual([...POLICIES].sort());
    const table = page.getByRole("table", { name: "Results" });
    for (const a of aggregates) {
      const row = table.getByRole("row").filter({ has: page.getByRole("button", { name: `Cuts of ${a.id}` }) });
      await expect(row).toContainText(a.prunePct.toFixed(2));
      await expect(row).toContainText(a.noImpactPct.toFixed(2));
      await expect(row).toContainText(`${a.ci95[0].toFixed(2)}–${a.ci95[1].toFixed(2)}`);
      await expect(row).toContainText(`${a.noImpact} / ${a.n}`);
    }
    // The chart: one labelled point per policy, whiskers drawn.
    const chart = page.getByTestId("tradeoff-chart");
    await expect(chart.locator(".recharts-scatter-symbol")).toHaveCount(POLICIES.length);
    for (const id of POLICIES) await expect(chart.locator("text", { hasText: new RegExp(`^${id}$`) })).toHaveCount(1);
    await expect(chart.locator(".recharts-errorBar").first()).toBeAttached();

    // The reproduction package: a zip named after the run whose aggregates.json is what the table shows.
    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download reproduction package" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^tracefold-eval-e2e-swe-agent-\d+-[a-z0-9]{8}\.zip$/);
    const files = readZip(readFileSync(await download.path()));
    const root = download.suggestedFilename().replace(/\.zip$/, "");
    expect(JSON.parse(files.get(`${root}/aggregates.json`)!.toString("utf8")).policies).toEqual(aggregates);
    expect(files.has(`${root}/recompute.mjs`)).toBe(true);

    // Drill down: the policy's cuts, one cut's evidence, then the replay page at that cut.
    await table.getByRole("button", { name: "Cuts of tool-prune" }).click();
    const cuts = page.getByRole("table", { name: "Cuts of tool-prune" });
    const toolPrune = aggregates.find((a) => a.id === "tool-prune")!;
    await expect(cuts.getByRole("row")).toHaveCount(toolPrune.n + 1);
    await cuts
      .getByRole("link", { name: /^Evidence at cut \d+/ })
      .first()
      .click();
    await expect(page).toHaveURL(/[?&]unit=/);
    const evidence = page.getByTestId("evidence-panel");
    await expect(evidence).toContainText("judge dependency");
    await evidence.getByRole("link", { name: "Open this cut in the replay view" }).click();
    await expect(page).toHaveURL(/\/sessions\/[^/]+\/compact\?policy=tool-prune&cut=\d+&window=\d+$/);
    await expect(page.getByRole("heading", { level: 1, name: "Replay policies at a cut" })).toBeVisible();
  });
});

test.describe("suites and parameters, as a reviewer", () => {
  test.use({ storageState: storageStateOf("reviewer") });

  test("saves a filter, sees its live count, runs on it with a custom parameter and reads the results", async ({ page }) => {
    await page.goto("/evaluations");
    const suites = page.getByRole("region", { name: "Suites" });
    const count = suites.getByTestId("suite-count");
    // A filter that matches nothing counts zero; min above max is refused on its field.
    await suites.getByLabel("Model contains (comma-separated, any of)").fill("no-such-model-e2e");
    await expect(count).toHaveText("0 sessions · 0 cuts match", { timeout: 30_000 });
    await suites.getByLabel("Model contains (comma-separated, any of)").fill("");
    await suites.getByRole("checkbox", { name: "swe_agent_traj", exact: true }).check();
    await suites.getByLabel("Min messages").fill("30");
    await suites.getByLabel("Max messages").fill("5");
    await expect(suites.getByRole("alert")).toHaveText("maxMessages (5) is below minMessages (30)");
    await expect(count).toHaveText("Fix the highlighted fields.");
    await suites.getByLabel("Max messages").fill("");
    // katy.traj: 37 messages, 3 replay cuts; every stored SWE-agent session of 30+ messages is counted.
    await expect(count).toHaveText(/^[1-9]\d* sessions? · [1-9]\d* cuts? match$/);
    const filterName = `e2e long swe-agent ${Date.now()}`;
    await suites.getByLabel("Save as").fill(filterName);
    await suites.getByRole("button", { name: "Save filter" }).click();
    await expect(suites.getByRole("status")).toHaveText(`Saved “${filterName}”.`);
    const saved = suites.getByRole("table", { name: "Saved filters" }).getByRole("row").filter({ hasText: filterName });
    await expect(saved).toContainText("--filter format=swe_agent_traj,minMessages=30");

    const form = page.getByRole("region", { name: "New evaluation" });
    const runName = `e2e saved filter ${Date.now()}`;
    await form.getByLabel("Name (optional)").fill(runName);
    await form.getByLabel("Saved suite filter").selectOption({ label: filterName });
    await expect(form.getByText("--filter format=swe_agent_traj,minMessages=30")).toBeVisible();
    for (const id of ["none", "tool-prune"]) await form.getByRole("checkbox", { name: id, exact: true }).check();
    const params = form.getByTestId("params-tool-prune");
    await params.getByText(/^Parameters \(2\)/).click();
    await params.getByLabel("targetRatio").fill("0.5");
    await expect(params.getByText("Parameters (2) · 1 changed")).toBeVisible();
    await form.getByRole("button", { name: "Start evaluation" }).click();

    await expect(page).toHaveURL(/\/evaluations\/[a-z0-9]+$/);
    await expect(page.getByRole("heading", { level: 1, name: runName })).toBeVisible();
    await expect(page.getByText(`${filterName}: filter format=swe_agent_traj,minMessages=30`).first()).toBeVisible();
    await expect(page.getByTestId("run-params")).toHaveText("parameters — tool-prune: targetRatio=0.5");
    await expect(page.getByTestId("run-status").first()).toHaveText("done", { timeout: 60_000 });
    const runId = page.url().split("/").pop()!;
    const body = (await (await page.request.get(`/api/evaluations/${runId}`)).json()) as {
      data: { run: { settings: { suite: unknown; policies: unknown } }; aggregates: { policies: Aggregate[] } };
    };
    expect(body.data.run.settings.suite).toEqual({ kind: "filter", filter: { formats: ["swe_agent_traj"], minMessages: 30 }, name: filterName });
    expect(body.data.run.settings.policies).toEqual([{ id: "none" }, { id: "tool-prune", params: { targetRatio: 0.5 } }]);
    const table = page.getByRole("table", { name: "Results" });
    for (const a of body.data.aggregates.policies) {
      expect(a.n).toBeGreaterThan(0);
      const row = table.getByRole("row").filter({ has: page.getByRole("button", { name: `Cuts of ${a.id}` }) });
      await expect(row).toContainText(`${a.noImpact} / ${a.n}`);
    }
    await expect(page.getByTestId("tradeoff-chart").getByTestId("tradeoff-label")).toHaveCount(2);
  });
});

test.describe("as a viewer", () => {
  test.use({ storageState: storageStateOf("viewer") });

  test("sees the runs but cannot start, cancel or resume one", async ({ page }) => {
    await page.goto("/evaluations");
    await expect(page.getByRole("heading", { level: 1, name: "Evaluations" })).toBeVisible();
    await expect(page.getByRole("table", { name: "Evaluation runs" })).toBeVisible();
    await expect(page.getByRole("region", { name: "New evaluation" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Start evaluation" })).toHaveCount(0);
    await page.getByRole("table", { name: "Evaluation runs" }).getByRole("link").first().click();
    await expect(page.getByTestId("run-status").first()).toBeVisible();
    await expect(page.getByRole("button", { name: /^(Cancel|Resume)$/ })).toHaveCount(0);
  });
});
