import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { storageStateOf } from "./fixtures/accounts";
import { E2E_ENV, importForE2e } from "./fixtures/import-session";

/**
 * Issue 17 item 12: an A/B queue for one chosen pair (with its cuts and a seeded sample) built from
 * the form and labeled with the keyboard only (a/b/t → the rationale has the focus → Enter saves →
 * u undoes that save), and a blind failure-category queue that shows the judge's answer only after
 * the reviewer's. The SWE-agent demo trajectory's cuts: the dependency judge passes none everywhere
 * and fails tool-prune at some cuts, so the pair disagrees at some cuts and agrees at others.
 */
const SWE_AGENT_TRACE = resolve("../shared/traces/swe_agent_traj/SWE-agent__SWE-agent/trajectories/demonstrations/ctf/crypto/katy.traj");
const NAME = `e2e ab queue ${Date.now()}`;
const RUN = `${NAME} source`;
const AB_QUEUE = `${NAME} pair`;

test.beforeAll(() => {
  importForE2e(SWE_AGENT_TRACE);
  execFileSync("npx", ["--no-install", "tsx", "e2e/fixtures/seed-review-queue.ts", "swe_agent_traj", "1", NAME, "failure"], {
    env: { ...process.env, ...E2E_ENV },
    encoding: "utf8",
  });
});

async function exportedLabels(page: Page): Promise<Record<string, unknown>[]> {
  const response = await page.request.get(`/api/review/${page.url().split("/").pop()}/export?format=jsonl`);
  expect(response.ok()).toBe(true);
  return (await response.text())
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

test("an admin builds an A/B queue for one pair (all cuts, a sample of 2) and labels it with the keyboard only", async ({ browser }) => {
  const page = await browser.newPage({ storageState: storageStateOf("admin") });
  await page.goto("/review");
  const form = page.getByRole("form", { name: "New review queue" });
  await form.getByLabel("Evaluation run").selectOption({ label: `${RUN} (done)` });
  await form.getByLabel("Kind").selectOption("failure");
  await expect(form.getByRole("checkbox", { name: /^Blind/ })).toBeChecked(); // failure queues are blind unless unticked
  await form.getByLabel("Kind").selectOption("ab");
  await expect(form.getByRole("checkbox", { name: /^Blind/ })).toHaveCount(0);
  // The pair comes from the run's policies; the same policy twice is refused next to policy B.
  await expect(form.getByLabel("Policy A").locator("option")).toHaveText(["choose a policy…", "none", "tool-prune", "oldest-turn"]);
  await form.getByLabel("Policy A").selectOption("none");
  await form.getByLabel("Policy B").selectOption("none");
  await form.getByLabel("Name (optional)").fill(AB_QUEUE);
  await form.getByRole("button", { name: "Create queue" }).click();
  await expect(form.getByLabel("Policy B")).toHaveAttribute("aria-invalid", "true");
  await expect(form.locator("#queue-policyB-error")).toHaveText("policy B must differ from policy A (both are none)");
  await form.getByLabel("Policy B").selectOption("tool-prune");
  await form.getByRole("radio", { name: "All cuts judged for both" }).check();
  await form.getByLabel("Sample size (optional)").fill("2");
  await form.getByLabel("Seed (optional)").fill("42");
  await form.getByRole("button", { name: "Create queue" }).click();
  await expect(page.getByRole("heading", { level: 1, name: AB_QUEUE })).toBeVisible();
  await expect(page.getByTestId("queue-options")).toHaveText(
    /^A\/B pair none vs tool-prune · all cuts judged for both · a sample of 2 of \d+ items \(seed 42\)$/,
  );

  // a → the verdict is set and the rationale has the focus (the key is not typed into it).
  const rationale = page.getByLabel("Rationale");
  await expect(page.getByTestId("item-position")).toHaveText("Item 1 of 2");
  const first = await page.getByTestId("item-title").textContent();
  await page.keyboard.press("a");
  await expect(page.getByRole("radio", { name: /A is better/ })).toBeChecked();
  await expect(rationale).toBeFocused();
  await expect(rationale).toHaveValue("");
  await page.keyboard.type("A keeps the file the agent reads next");
  // Enter in the rationale saves and moves on; the field lets go of the focus.
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("verdict-count")).toHaveText("1");
  await expect(page.getByTestId("item-position")).toHaveText("Item 2 of 2");
  await expect(rationale).not.toBeFocused();
  await expect(rationale).toHaveValue("");
  // u right after Enter undoes that save: the first item opens again with the answer in the form.
  await page.keyboard.press("u");
  await expect(page.getByTestId("review-notice")).toContainText("Undone");
  await expect(page.getByTestId("verdict-count")).toHaveText("0");
  await expect(page.getByTestId("item-position")).toHaveText("Item 1 of 2");
  await expect(page.getByTestId("item-title")).toHaveText(first!);
  await expect(rationale).toHaveValue("A keeps the file the agent reads next");
  await expect(page.getByRole("radio", { name: /A is better/ })).toBeChecked();
  expect((await exportedLabels(page)).map((l) => [l.version, l.verdict, l.retracted ?? false])).toEqual([
    [1, "A_better", false],
    [2, "A_better", true],
  ]);

  // Saved again, then the second item: t, a rationale, Enter — the queue is done.
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("item-position")).toHaveText("Item 2 of 2");
  await page.keyboard.press("t");
  await expect(rationale).toBeFocused();
  await page.keyboard.type("both keep what the future reads");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("queue-done")).toBeVisible();
  await expect(page.getByTestId("verdict-count")).toHaveText("2");
  const labels = await exportedLabels(page);
  expect(labels.map((l) => [l.version, l.verdict, l.retracted ?? false])).toEqual(
    expect.arrayContaining([
      [3, "A_better", false],
      [1, "tie", false],
    ]),
  );
  expect(labels).toHaveLength(4);
  await page.close();
});

test.describe("as a reviewer", () => {
  test.use({ storageState: storageStateOf("reviewer") });

  test("a blind failure queue hides the judge's category and culprit until the reviewer has answered, then shows them", async ({ page }) => {
    await page.goto("/review");
    await page.getByRole("link", { name: `${NAME} failure`, exact: true }).click();
    await expect(page.getByTestId("queue-options")).toHaveText("blind: the judge's category and culprit show after your answer");
    await expect(page.getByTestId("judge-hidden")).toBeVisible();
    await expect(page.getByTestId("review-item")).not.toContainText("Judge's culprit");
    await expect(page.getByLabel("Culprit object id")).toHaveValue(""); // not pre-filled with the judge's
    const position = await page.getByTestId("item-position").textContent();

    // 3 picks the category and moves the focus to the culprit; Enter there saves and reveals.
    await page.keyboard.press("3");
    await expect(page.getByRole("radio", { name: /Behavioral-contract loss/ })).toBeChecked();
    await expect(page.getByLabel("Culprit object id")).toBeFocused();
    await page.keyboard.type("function:exec:1");
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("verdict-count")).toHaveText("1");
    await expect(page.getByRole("heading", { name: "Judge evidence (revealed after your answer)" })).toBeVisible();
    await expect(page.getByTestId("your-answer")).toContainText("Your answer: Behavioral-contract loss, culprit function:exec:1");
    await expect(page.getByTestId("judge-hidden")).toHaveCount(0);
    await expect(page.getByTestId("item-position")).toHaveText(position!); // still on the answered item

    // Enter on the revealed answer moves on: the next item is hidden again.
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("item-position")).not.toHaveText(position!);
    await expect(page.getByTestId("judge-hidden")).toBeVisible();
    await expect(page.getByTestId("verdict-count")).toHaveText("1");
  });
});
