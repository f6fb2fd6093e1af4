import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { storageStateOf } from "./fixtures/accounts";
import { importForE2e, type ImportedSession } from "./fixtures/import-session";

/*
 * The harness's hard limit in the studio: a reviewer starts a rollout with "Hard limit" checked in a
 * window the session outgrows, and the run page shows the flag in its settings and, per policy, the
 * commits the limit asked for and the calls still over the window — each what
 * `tracefold rollout --hard-limit --json` prints for the same file and flags.
 */
test.use({ storageState: storageStateOf("reviewer") });

/** A mini-swe-agent run (42 model calls) whose prompts outgrow a 6,000-token window. */
const FILE = resolve(
  "../shared/traces/mini_swe_agent_traj/SWE-agent__mini-swe-agent/output/deepseek_chat_test_1-100/django__django-11099/django__django-11099.traj.json",
);
const POLICIES = ["self-gc", "none"];
const WINDOW = 6_000;

let session: ImportedSession;
test.beforeAll(() => {
  session = importForE2e(FILE)[0]!;
});

test("starts a rollout with the hard limit, and reads its commits and the calls still over the window as the CLI prints them", async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto("/rollouts");
  const form = page.getByRole("region", { name: "New rollout" });
  const name = `e2e hard limit ${Date.now()}`;
  await form.getByLabel("Name (optional)").fill(name);
  for (const id of ["tool-prune", "oldest-turn"]) await form.getByRole("checkbox", { name: id, exact: true }).uncheck();
  for (const id of POLICIES) await form.getByRole("checkbox", { name: id, exact: true }).check();
  await form.getByRole("radio", { name: "Chosen sessions" }).check();
  await form.getByLabel("Sessions to roll out").selectOption(session.id);
  await form.getByLabel(/^Window/).fill(String(WINDOW));
  await form.getByLabel("Trigger (share of the window)").fill("80%");
  await form.getByRole("checkbox", { name: "Hard limit" }).check();
  await form.getByRole("button", { name: "Start rollout" }).click();
  await expect(page).toHaveURL(/\/rollouts\/[a-z0-9]+$/);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByTestId("rollout-status")).toHaveText("done", { timeout: 100_000 });
  await expect(page.getByTestId("rollout-settings")).toContainText("--hard-limit");

  const cli = JSON.parse(
    execFileSync(
      process.execPath,
      ["cli/bin.mjs", "rollout", FILE, "--policies", POLICIES.join(","), "--window", String(WINDOW), "--trigger", "80%", "--hard-limit", "--json"],
      { encoding: "utf8" },
    ),
  ) as { hardLimit: boolean; policies: { id: string; overflowCalls: number; hardLimitCommits: number; compactions: number }[] };
  expect(cli.hardLimit).toBe(true);
  const summary = page.getByRole("table", { name: "Rollout summary per policy" });
  await expect(summary.getByRole("columnheader", { name: "Hard-limit commits" })).toBeVisible();
  for (const p of cli.policies) {
    // Cells after the row header: …, compactions (7), …, calls over the window (11), hard-limit commits (12).
    const cells = summary.getByTestId(`rollout-summary-${p.id}`).getByRole("cell");
    await expect(cells.nth(7)).toHaveText(p.compactions.toLocaleString("en-US"));
    await expect(cells.nth(11)).toHaveText(p.overflowCalls.toLocaleString("en-US"));
    await expect(cells.nth(12)).toHaveText(p.hardLimitCommits.toLocaleString("en-US"));
  }
  expect(cli.policies.find((p) => p.id === "self-gc")!.hardLimitCommits).toBeGreaterThan(0);
});
