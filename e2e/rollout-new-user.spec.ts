import { execFileSync } from "node:child_process";
import { basename, resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { storageStateOf } from "./fixtures/accounts";

/*
 * Issue 14's last "Done means", as a new user tries it, through the UI only: upload a long Claude Code
 * session, start a rollout of self-gc against tool-prune and oldest-turn, read which saves more money
 * after caching and which loses more, and open the call where one lost something. The figures the
 * page shows are checked against `tracefold rollout --json` on the same file and flags, so the spec
 * asserts what the studio shows, not what this trace happens to contain.
 */
test.use({ storageState: storageStateOf("reviewer") });

/** 491 messages of a real Claude Code session (other specs import it too: its upload may be recognised). */
const LONG_SESSION = resolve("../shared/traces/claude_code_jsonl/marot__spotter/test/fixtures/transcripts/258c7280-ae70-4798-800f-63464d01a85d.jsonl");
const POLICIES = ["self-gc", "tool-prune", "oldest-turn"];
/** A window the session outgrows several times, so every policy compacts more than once. */
const WINDOW = 64_000;

interface CliPolicy {
  id: string;
  cost: { without: number; with: number } | null;
  lostStepsPer100: number | null;
  restores: number;
  overflowCalls: number;
}

test("uploads a long Claude Code session, rolls out self-gc against tool-prune and oldest-turn, compares cost after caching and losses, opens a lost call", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.goto("/upload");
  await page.getByLabel("Choose trace files").setInputFiles(LONG_SESSION);
  await page.getByRole("button", { name: "Upload 1 file" }).click();
  const row = page.getByTestId("upload-row").filter({ hasText: basename(LONG_SESSION) });
  await expect(row).toHaveAttribute("data-status", /^(imported|duplicate)$/, { timeout: 60_000 });
  const sessionLink = row.getByRole("list", { name: "Sessions" }).getByRole("link").first();
  const href = (await sessionLink.getAttribute("href"))!;
  const sessionId = decodeURIComponent(/^\/sessions\/([\w-]+)$/.exec(href)![1]!);

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Rollouts" }).click();
  const form = page.getByRole("region", { name: "New rollout" });
  const name = `e2e new-user rollout ${Date.now()}`;
  await form.getByLabel("Name (optional)").fill(name);
  await form.getByRole("checkbox", { name: "none", exact: true }).uncheck();
  for (const id of POLICIES) await form.getByRole("checkbox", { name: id, exact: true }).check();
  await form.getByRole("radio", { name: "Chosen sessions" }).check();
  await form.getByLabel("Sessions to roll out").selectOption(sessionId);
  await form.getByLabel(/^Window/).fill(String(WINDOW));
  await form.getByRole("button", { name: "Start rollout" }).click();
  await expect(page).toHaveURL(/\/rollouts\/[a-z0-9]+$/);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByTestId("rollout-status")).toHaveText("done", { timeout: 150_000 });

  // Which saves more money after caching, which loses more: the page's cost and loss columns, as the CLI computes them.
  const cli = JSON.parse(
    execFileSync(process.execPath, ["cli/bin.mjs", "rollout", LONG_SESSION, "--policies", POLICIES.join(","), "--window", String(WINDOW), "--json"], {
      encoding: "utf8",
    }),
  ) as { policies: CliPolicy[] };
  const usd = (x: number) => `$${x.toFixed(x >= 100 ? 2 : 4)}`;
  const summary = page.getByRole("table", { name: "Rollout summary per policy" });
  for (const p of cli.policies) {
    const cells = summary.getByTestId(`rollout-summary-${p.id}`).getByRole("cell");
    // Cells after the row header: calls, tokens without, tokens with, reduction, cached, cost without, cost with, …
    await expect(cells.nth(5)).toHaveText(usd(p.cost!.without));
    await expect(cells.nth(6)).toHaveText(usd(p.cost!.with));
    await expect(cells.nth(8)).toHaveText(p.restores.toLocaleString("en-US"));
    await expect(cells.nth(10)).toContainText(p.lostStepsPer100!.toFixed(2));
    await expect(cells.nth(11)).toHaveText(p.overflowCalls.toLocaleString("en-US"));
  }
  const loser = [...cli.policies].sort((a, b) => b.lostStepsPer100! - a.lostStepsPer100!)[0]!;
  expect(loser.lostStepsPer100).toBeGreaterThan(0);

  // The session's row: the policy that lost most links to the call whose step needed a lost value.
  const sessions = page.getByTestId("rollout-sessions");
  const headers = (await sessions.getByRole("columnheader").allTextContents()).map((h) => h.trim());
  const column = headers.indexOf(`${loser.id}: saved · lost`);
  expect(column).toBeGreaterThan(0);
  const lostCell = sessions.getByRole("row").nth(1).getByRole("cell").nth(column);
  const lostLink = lostCell.getByTestId("lost-call-link");
  const lostHref = (await lostLink.getAttribute("href"))!;
  const [, call] = new RegExp(`/sessions/${sessionId}/calls/(\\d+)\\?policy=${loser.id}$`).exec(lostHref)!;
  await lostLink.click();
  // The prompt the agent had at that call: what was lost is named, and absent from the view.
  await expect(page.getByTestId("call-position")).toContainText(`call ${call} of `);
  const lost = page.getByTestId("lost-value");
  await expect(lost.first()).toContainText("lost in round");
  const value = (await lost.first().locator("code").textContent())!;
  await expect(page.getByTestId("call-view")).not.toContainText(value);
  await expect(page.getByTestId("call-mismatch")).toHaveCount(0);
  // And the same call in the original session.
  const message = /message #(\d+)/.exec((await page.getByTestId("call-summary").textContent())!)![1]!;
  await page.getByRole("link", { name: "the original session at this call" }).click();
  await expect(page).toHaveURL(new RegExp(`/sessions/${sessionId}#message-${message}$`));
  await expect(page.locator(`[data-message-index="${message}"]`)).toBeInViewport();
});
