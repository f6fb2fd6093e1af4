import { resolve } from "node:path";
import { expect, test, type Locator } from "@playwright/test";
import { zoomAxis } from "../components/evaluation/chart-domain";
import { storageStateOf } from "./fixtures/accounts";
import { importForE2e } from "./fixtures/import-session";

/**
 * Issue 16 in the studio: a run with a pointer style, matched budgets and a budget sweep, created
 * from the form (a bad sweep refused by budget, percent in the message), then its run page — the
 * results table with net prune and the three readings, the trade-off chart (curves, the net-prune
 * switch, axes zoomed to the data, labels clear of each other and of the whiskers at 1024 px, a
 * tooltip that names the policy, hover highlighting shared with the table), the judge's
 * calibration, the matched comparison, the judge sensitivity, and the drill-down by budget to a
 * cut's evidence through links that Back undoes (issue 17 items 9 and 10).
 */
const SWE_AGENT_TRACE = resolve("../shared/traces/swe_agent_traj/SWE-agent__SWE-agent/trajectories/demonstrations/ctf/crypto/katy.traj");
const POLICIES = ["none", "tool-prune", "oldest-turn", "self-gc"];

interface Figures {
  prunePct: number;
  netPrunePct: number | null;
  noImpactPct: number;
  visibleNoImpactPct: number | null;
  restorableNoImpactPct: number | null;
  n: number;
  ci95: [number, number];
}
interface Aggregates {
  policies: (Figures & {
    id: string;
    noImpact: number;
    visibleCi95: [number, number] | null;
    restorableCi95: [number, number] | null;
    restoresPerCut: number | null;
  })[];
  curves: (Figures & { policy: string; budgetPct: number })[];
  matched: {
    reference: string;
    policies: (Figures & { policy: string })[];
    paired: {
      policy: string;
      metric: string;
      diffPts: number;
      ci95: [number, number];
      mcnemarP: number;
      sizeMatched: { pairs: number; diffPts: number; ci95: [number, number]; mcnemarP: number } | null;
    }[];
  };
  sensitivity: { records: string; holds: number; of: number }[];
  cuts: number;
}

test.beforeAll(() => {
  importForE2e(SWE_AGENT_TRACE);
});

const two = (x: number) => x.toFixed(2);
const interval = (pct: number, ci: [number, number]) => `${two(pct)} [${two(ci[0])}, ${two(ci[1])}]`;

/** Client boxes of the elements `selector` matches under `root`. */
async function boxes(root: Locator, selector: string) {
  return root.evaluate(
    (el, sel) =>
      [...el.querySelectorAll(sel)].map((e) => {
        const b = e.getBoundingClientRect();
        return { left: b.left, right: b.right, top: b.top, bottom: b.bottom };
      }),
    selector,
  );
}
type Box = Awaited<ReturnType<typeof boxes>>[number];
const overlap = (a: Box, b: Box, slack = 1) => a.left + slack < b.right && b.left + slack < a.right && a.top + slack < b.bottom && b.top + slack < a.bottom;

test.describe("matched budgets and a sweep, as a reviewer", () => {
  test.use({ storageState: storageStateOf("reviewer"), viewport: { width: 1024, height: 900 } });

  test("creates the run from the form, then reads the table, chart, calibration, matched comparison, sensitivity and the drill-down by budget", async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await page.goto("/evaluations");
    const form = page.getByRole("region", { name: "New evaluation" });
    const name = `e2e budgets ${Date.now()}`;
    await form.getByLabel("Name (optional)").fill(name);
    await form.getByLabel("Suite format").selectOption("swe_agent_traj");
    for (const id of POLICIES) await form.getByRole("checkbox", { name: id, exact: true }).check();
    const match = form.getByLabel("Matched budgets: compare every policy at the view size of");
    await expect(match).toHaveValue("self-gc", { timeout: 5_000 });
    await match.selectOption("oldest-turn");
    await form.getByRole("radio", { name: /^plain/ }).check();
    await form.getByLabel("Budget sweep (% of each prefix removed)").fill("20,120");
    await form.getByRole("button", { name: "Start evaluation" }).click();
    await expect(form.getByTestId("sweep-errors")).toHaveText("budget 2 (120%): a budget is at most 95%");
    await expect(page).toHaveURL(/\/evaluations$/);
    await form.getByRole("button", { name: "20,40,60", exact: true }).click();
    await expect(form.getByTestId("sweep-errors")).toHaveCount(0);
    await form.getByRole("button", { name: "Start evaluation" }).click();

    await expect(page).toHaveURL(/\/evaluations\/[a-z0-9]+$/);
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    await expect(page.getByTestId("run-harness")).toHaveText(
      "pointers plain · budget sweep 20%, 40%, 60% of each prefix removed · matched budgets: every policy at the view size of oldest-turn",
    );
    await expect(page.getByTestId("run-status").first()).toHaveText("done", { timeout: 120_000 });
    const runId = page.url().split("/").pop()!;
    const body = (await (await page.request.get(`/api/evaluations/${runId}`)).json()) as { data: { run: { total: number }; aggregates: Aggregates } };
    const a = body.data.aggregates;
    expect(body.data.run.total).toBe(a.cuts * POLICIES.length * 5);
    await expect(page.getByTestId("run-progress-text").first()).toHaveText(`${body.data.run.total} / ${body.data.run.total}`);

    // The results table: prune, net prune, the headline with its interval, visible and restorable with theirs, restores per cut.
    await expect(page.getByTestId("verdict-legend")).toContainText("restorable");
    const table = page.getByRole("table", { name: "Results" });
    for (const p of a.policies) {
      const row = table.locator(`tr[data-policy="${p.id}"]`);
      for (const text of [
        two(p.prunePct),
        two(p.netPrunePct!),
        two(p.noImpactPct),
        `${two(p.ci95[0])}–${two(p.ci95[1])}`,
        interval(p.visibleNoImpactPct!, p.visibleCi95!),
        interval(p.restorableNoImpactPct!, p.restorableCi95!),
        two(p.restoresPerCut!),
        `${p.noImpact} / ${p.n}`,
      ]) {
        await expect(row).toContainText(text);
      }
    }
    await expect(page.getByTestId("judge-calibration")).toContainText("Judge agreement with careful reading: 87% [77, 93], κ 0.74 on 70 held-out gold views");

    // The chart: a curve point per policy and budget, own-settings markers, axes zoomed to the data.
    const chart = page.getByTestId("tradeoff-chart");
    await expect(chart.getByTestId("tradeoff-curve-point")).toHaveCount(a.curves.length);
    expect(a.curves.length).toBe(POLICIES.length * 3);
    const xTicks = chart.locator(".recharts-xAxis-tick-labels text");
    const maxPrune = Math.max(...a.policies.map((p) => p.prunePct), ...a.curves.map((c) => c.prunePct));
    expect(maxPrune).toBeLessThan(40);
    const expectedTicks = zoomAxis([...a.policies.map((p) => p.prunePct), ...a.curves.map((c) => c.prunePct)]).ticks;
    expect(expectedTicks.at(-1)).toBeLessThan(100);
    await expect(xTicks).toHaveText(expectedTicks.map((t) => `${t}%`));
    // Labels never touch each other or a whisker (1024 px wide).
    await expect(chart.getByTestId("tradeoff-label").first()).toBeAttached();
    const labels = await boxes(chart, '[data-testid="tradeoff-label"] text');
    const whiskers = (await boxes(chart, ".recharts-errorBar line")).map((w) => ({
      left: w.left - 1,
      right: w.right + 1,
      top: w.top - 1,
      bottom: w.bottom + 1,
    }));
    expect(labels.length).toBeGreaterThan(0);
    expect(whiskers.length).toBeGreaterThan(0);
    for (let i = 0; i < labels.length; i++) {
      for (let j = i + 1; j < labels.length; j++) expect(overlap(labels[i]!, labels[j]!), `labels ${i} and ${j} overlap`).toBe(false);
      for (const w of whiskers) expect(overlap(labels[i]!, w, 0), `label ${i} crosses a whisker`).toBe(false);
    }
    // The tooltip names the policy and shows one % per figure.
    const toolPrune = a.policies.find((p) => p.id === "tool-prune")!;
    await chart.locator('path[name="tool-prune"]').hover();
    const tooltip = page.getByTestId("tradeoff-tooltip");
    await expect(tooltip).toBeVisible();
    await expect(tooltip).toContainText(
      `tool-prune · own settingsPruning rate: ${toolPrune.prunePct.toFixed(1)}%No-impact rate: ${toolPrune.noImpactPct.toFixed(1)}% [`,
    );
    await expect(tooltip).not.toContainText("%%");
    await expect(chart.locator('[data-testid="tradeoff-legend-item"][data-policy="tool-prune"]')).toHaveAttribute("aria-pressed", "true");
    await page.mouse.move(0, 0);
    // The net-prune switch.
    await chart.getByRole("button", { name: "Net prune" }).click();
    await expect(chart).toHaveAttribute("data-x-axis", "net");
    await expect(chart.getByRole("button", { name: "Net prune" })).toHaveAttribute("aria-pressed", "true");
    await expect(chart).toContainText("Net pruning rate (after restores) (%)");
    // Hovering a policy highlights it in the table and the chart, both ways.
    await table.locator('tr[data-policy="tool-prune"]').hover();
    await expect(chart.locator('[data-testid="tradeoff-legend-item"][data-policy="tool-prune"]')).toHaveAttribute("aria-pressed", "true");
    await chart.locator('[data-testid="tradeoff-legend-item"][data-policy="oldest-turn"]').hover();
    await expect(table.locator('tr[data-policy="oldest-turn"]')).toHaveAttribute("data-highlighted", "true");
    await expect(table.locator('tr[data-policy="tool-prune"]')).not.toHaveAttribute("data-highlighted", "true");

    // The matched comparison: each policy at oldest-turn's view size, the paired differences, in words.
    const matched = page.getByRole("table", { name: "Matched to oldest-turn" });
    expect(a.matched.reference).toBe("oldest-turn");
    for (const p of a.matched.policies) {
      const row = matched.locator(`tr[data-policy="${p.policy}"]`);
      await expect(row).toContainText(two(p.prunePct));
      await expect(row).toContainText(interval(p.noImpactPct, p.ci95));
    }
    for (const d of a.matched.paired.filter((x) => x.metric === "noImpact")) {
      await expect(matched.locator(`tr[data-policy="${d.policy}"]`)).toContainText(
        `${d.diffPts > 0 ? "+" : ""}${two(d.diffPts)} [${two(d.ci95[0])}, ${two(d.ci95[1])}]`,
      );
    }
    // The visible difference again where the views came out the same size (as the CLI's sizeMatched), or "—" without such a cut.
    for (const d of a.matched.paired.filter((x) => x.metric === "visibleNoImpact")) {
      const same = matched.getByTestId(`matched-same-size-${d.policy}`);
      if (d.sizeMatched)
        await expect(same).toContainText(
          `${d.sizeMatched.diffPts > 0 ? "+" : ""}${two(d.sizeMatched.diffPts)} [${two(d.sizeMatched.ci95[0])}, ${two(d.sizeMatched.ci95[1])}]`,
        );
      else await expect(same).toHaveText("—");
    }
    await expect(page.getByTestId("matched-sentences").getByRole("listitem")).toHaveCount(a.matched.paired.length);
    await expect(page.getByTestId("matched-sentences")).toContainText("At oldest-turn's view size, tool-prune keeps");

    // Judge sensitivity.
    const own = a.sensitivity.find((r) => r.records === "own")!;
    await expect(page.getByTestId("sensitivity-own").getByTestId("sensitivity-line")).toHaveText(
      `The ranking holds under ${own.holds} of ${own.of} judge variants`,
    );
    await expect(page.getByTestId("sensitivity-matched")).toBeVisible();

    // Drill-down: a click anywhere on a row opens its cuts; the budget chooser; a visible evidence link; Back.
    await table.locator('tr[data-policy="tool-prune"] td').nth(1).click();
    await expect(page).toHaveURL(/[?&]policy=tool-prune/);
    const cuts = page.getByRole("table", { name: "Cuts of tool-prune" });
    await expect(cuts.getByRole("row")).toHaveCount(a.cuts + 1);
    await page.getByLabel("Budget of the listed cuts").selectOption({ label: "matched to oldest-turn" });
    await expect(page).toHaveURL(/[?&]budget=match-oldest-turn/);
    await expect(page.getByRole("heading", { name: /Cuts of tool-prune \(matched to oldest-turn\)/ })).toBeVisible();
    await expect(cuts.getByTestId("cut-reading").first()).toHaveText(/^(visible|restorable|lost)$/);
    const evidenceLink = cuts.getByRole("link", { name: /^Evidence at cut \d+/ }).first();
    await expect(evidenceLink).toHaveAttribute("href", /unit=/);
    await evidenceLink.click();
    const evidence = page.getByTestId("evidence-panel");
    await expect(evidence).toContainText("matched to oldest-turn");
    await expect(evidence.getByTestId("evidence-readings")).toContainText("Every dependency visible");
    await expect(evidence.getByTestId("evidence-counts")).toContainText(/\d+ visible · \d+ restorable · \d+ lost/);
    await page.goBack();
    await expect(page.getByTestId("evidence-panel")).toHaveCount(0);
    await expect(cuts).toBeVisible();
  });
});
