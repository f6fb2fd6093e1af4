import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { storageStateOf } from "./fixtures/accounts";
import { E2E_ENV } from "./fixtures/import-session";

/** The demo suite's six generated sessions (e2e/fixtures/seed-demo-sessions.ts), with planted dependencies tool-prune loses. */
let demo: { id: string; title: string }[] = [];
const DEMO_FILE = resolve("data/e2e/demo/scenarios-20261123.jsonl");
const POLICIES = ["self-gc", "tool-prune", "oldest-turn", "none"];

interface CliPolicy {
  id: string;
  calls: number;
  reductionPct: number | null;
  lostStepsPer100: number | null;
  compactions: number;
  restores: number;
}

test.beforeAll(() => {
  const stdout = execFileSync("npx", ["--no-install", "tsx", "e2e/fixtures/seed-demo-sessions.ts"], { env: { ...process.env, ...E2E_ENV }, encoding: "utf8" });
  demo = JSON.parse(stdout.trim().split("\n").pop()!) as { id: string; title: string }[];
});

test.describe("as a reviewer", () => {
  test.use({ storageState: storageStateOf("reviewer") });

  test("starts a rollout of the demo sessions from the list, watches it finish, reads the CLI's figures and opens the view the agent had at a call where a value was lost", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.goto("/traces");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Rollouts" }).click();
    await expect(page).toHaveURL(/\/rollouts$/);
    const form = page.getByRole("region", { name: "New rollout" });
    const name = `e2e rollout ${Date.now()}`;
    await form.getByLabel("Name (optional)").fill(name);
    // The default policies are the four the issue compares.
    for (const id of POLICIES) await expect(form.getByRole("checkbox", { name: id, exact: true })).toBeChecked();
    await form.getByRole("radio", { name: "Chosen sessions" }).check();
    await form.getByLabel("Sessions to roll out").selectOption(demo.map((s) => s.id));
    await form.getByRole("button", { name: "Start rollout" }).click();

    // The run's own page: its status and progress, until it is done.
    await expect(page).toHaveURL(/\/rollouts\/[a-z0-9]+$/);
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    await expect(page.getByTestId("rollout-status")).toHaveText("done", { timeout: 90_000 });
    await expect(page.getByTestId("rollout-progress-text")).toHaveText(`${demo.length} / ${demo.length} sessions`);

    // The summary table shows what `tracefold rollout --json` prints for the same sessions and flags.
    const cli = JSON.parse(
      execFileSync(process.execPath, ["cli/bin.mjs", "rollout", DEMO_FILE, "--policies", POLICIES.join(","), "--json"], { encoding: "utf8" }),
    ) as { policies: CliPolicy[] };
    const summary = page.getByRole("table", { name: "Rollout summary per policy" });
    for (const p of cli.policies) {
      const row = summary.getByTestId(`rollout-summary-${p.id}`);
      await expect(row.getByRole("cell").nth(0)).toHaveText(p.calls.toLocaleString("en-US"));
      await expect(row).toContainText(`${p.reductionPct!.toFixed(1)}%`);
      await expect(row).toContainText(p.lostStepsPer100!.toFixed(2));
      await expect(row.getByRole("cell").nth(7)).toHaveText(p.compactions.toLocaleString("en-US"));
    }
    expect(cli.policies.find((p) => p.id === "tool-prune")!.lostStepsPer100).toBeGreaterThan(0);
    await expect(page.getByTestId("rollout-frontier").locator(".recharts-scatter-symbol")).toHaveCount(POLICIES.length);
    await expect(page.getByTestId("rollout-drift")).toBeVisible();

    // The per-session table opens the call whose step needed a lost value, with the view the agent had there.
    await expect(page.getByTestId("lost-session-link").first()).toHaveAttribute("href", /^\/sessions\/[^/#]+#message-\d+$/);
    const link = page.getByTestId("lost-call-link").first();
    const href = (await link.getAttribute("href"))!;
    const title = (await link.getAttribute("title"))!;
    const [, runId, sessionId, call, policy] = /^\/rollouts\/([a-z0-9]+)\/sessions\/([^/]+)\/calls\/(\d+)\?policy=([a-z-]+)$/.exec(href)!;
    expect(demo.map((s) => s.id)).toContain(decodeURIComponent(sessionId!));
    expect(POLICIES).toContain(policy);
    await link.click();
    await expect(page).toHaveURL(new RegExp(`/rollouts/${runId}/sessions/${sessionId}/calls/${call}\\?policy=${policy}$`));
    await expect(page.getByTestId("call-position")).toContainText(`call ${call} of `);
    await expect(page.getByTestId("call-round")).toContainText("after round");
    // The lost values are named (kind, category, round) and marked where the step used them; the view holds messages but not the value.
    const lost = page.getByTestId("lost-value");
    await expect(lost.first()).toContainText("lost in round");
    const value = (await lost.first().locator("code").textContent())!;
    expect(title.startsWith(`lost: ${value}`.slice(0, 300))).toBe(true);
    await expect(page.getByTestId("lost-mark").first()).toBeVisible();
    await expect(page.getByTestId("view-message").first()).toBeVisible();
    await expect(
      page
        .getByTestId("view-message")
        .filter({ has: page.locator("[data-action]:not([data-action='keep'])") })
        .or(page.getByTestId("view-gap"))
        .first(),
    ).toBeVisible();
    await expect(page.getByTestId("call-view")).not.toContainText(value);
    await expect(page.getByTestId("call-mismatch")).toHaveCount(0);

    // From there, the same call in the original session.
    const message = /message #(\d+)/.exec((await page.getByTestId("call-summary").textContent())!)![1]!;
    await page.getByRole("link", { name: "the original session at this call" }).click();
    await expect(page).toHaveURL(new RegExp(`/sessions/${sessionId}#message-${message}$`));
    await expect(page.getByTestId("session-header")).toBeVisible();
    await expect(page.locator(`[data-message-index="${message}"]`)).toBeInViewport();
  });
});

test.describe("as a viewer", () => {
  test.use({ storageState: storageStateOf("viewer") });

  test("reads the rollouts but is offered no form and no run controls", async ({ page }) => {
    await page.goto("/rollouts");
    await expect(page.getByRole("heading", { level: 1, name: "Rollouts" })).toBeVisible();
    await expect(page.getByRole("region", { name: "New rollout" })).toHaveCount(0);
    const first = page.getByTestId("rollout-run-row").first();
    if ((await first.count()) === 0) {
      await expect(page.getByTestId("rollouts-empty")).toBeVisible();
      return;
    }
    await first.getByRole("link").click();
    await expect(page).toHaveURL(/\/rollouts\/[a-z0-9]+$/);
    await expect(page.getByRole("button", { name: "Cancel" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Resume" })).toHaveCount(0);
  });
});
