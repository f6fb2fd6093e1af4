import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { storageStateOf } from "./fixtures/accounts";
import { E2E_ENV, importForE2e } from "./fixtures/import-session";

/** A real SWE-agent trajectory whose replay cuts include impacted ones (the dependency judge finds losses). */
const SWE_AGENT_TRACE = resolve("../shared/traces/swe_agent_traj/SWE-agent__SWE-agent/trajectories/demonstrations/ctf/crypto/katy.traj");
const NAME = `e2e review ${Date.now()}`;
const QUEUE_NAME = `${NAME} dependency`;
let queueId = "";

test.beforeAll(() => {
  importForE2e(SWE_AGENT_TRACE);
  const stdout = execFileSync("npx", ["--no-install", "tsx", "e2e/fixtures/seed-review-queue.ts", "swe_agent_traj", "2", NAME, "dependency", "failure", "ab"], {
    env: { ...process.env, ...E2E_ENV },
    encoding: "utf8",
  });
  queueId = (JSON.parse(stdout.trim().split("\n").pop()!) as { dependency: string }).dependency;
});

/** Selects the first 8 characters of the first part with text in one column, as a mouse would. */
async function selectText(page: Page, area: "prefix" | "future"): Promise<void> {
  await page.evaluate((where) => {
    const pre = [...document.querySelectorAll<HTMLPreElement>(`[data-area="${where}"] pre`)].find((p) => (p.textContent ?? "").trim().length >= 8)!;
    const node = pre.firstChild!;
    const range = document.createRange();
    range.setStart(node, 0);
    range.setEnd(node, 8);
    const selection = window.getSelection()!;
    selection.removeAllRanges();
    selection.addRange(range);
    pre.dispatchEvent(new MouseEvent("mouseup", { bubbles: true }));
  }, area);
}

async function openQueue(page: Page, name = QUEUE_NAME): Promise<void> {
  await page.goto("/review");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Review" }).click();
  await page.getByRole("link", { name, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
}

test("a reviewer labels a cut with the keyboard; a second reviewer on the overlapped item moves the agreement; a viewer cannot label", async ({ browser }) => {
  // Reviewer 1: open the first item, check the shortcut overlay, confirm a candidate with y, submit with Enter.
  const reviewer = await browser.newPage({ storageState: storageStateOf("reviewer") });
  await openQueue(reviewer);
  await expect(reviewer.getByTestId("verdict-count")).toHaveText("0");
  await expect(reviewer.getByTestId("item-title")).toBeVisible();
  const firstItem = await reviewer.getByTestId("item-title").textContent();
  await reviewer.keyboard.press("?");
  const overlay = reviewer.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(overlay).toContainText("confirm the focused candidate");
  await expect(overlay).toContainText("undo your last label");
  await reviewer.keyboard.press("Escape");
  await expect(overlay).toBeHidden();
  // Add a dependency by selecting a span in the future, then one in the prefix, then a type (2); undo it.
  await selectText(reviewer, "future");
  await expect(reviewer.getByTestId("pending-add")).toContainText("Now select the span in the prefix");
  await selectText(reviewer, "prefix");
  await expect(reviewer.getByTestId("pending-add")).toContainText("Pick its type");
  await reviewer.keyboard.press("2");
  await expect(reviewer.getByTestId("added-dependency")).toHaveCount(1);
  await expect(reviewer.getByTestId("added-dependency")).toContainText("locator / handle");
  await reviewer.keyboard.press("u");
  await expect(reviewer.getByTestId("added-dependency")).toHaveCount(0);
  const candidates = reviewer.getByRole("option");
  expect(await candidates.count()).toBeGreaterThan(0);
  {
    await reviewer.keyboard.press("n");
    await expect(candidates.first()).toHaveAttribute("data-decision", "reject");
    await reviewer.keyboard.press("u");
    await expect(reviewer.getByTestId("review-notice")).toContainText("Undone");
    await expect(candidates.first()).toHaveAttribute("data-decision", "pending");
    await reviewer.keyboard.press("ArrowUp"); // the reject moved the focus on; back to the first candidate
    await expect(candidates.first()).toHaveAttribute("aria-selected", "true");
    await reviewer.keyboard.press("y");
    await expect(candidates.first()).toHaveAttribute("data-decision", "confirm");
  }
  // The network drops right after the server stored the verdict: the answer never arrives. The
  // screen retries the same save (same labelId + version); the server recognises it: one verdict, not two.
  let dropped = 0;
  await reviewer.route("**/review/**", async (route) => {
    const request = route.request();
    if (dropped === 0 && request.method() === "POST" && request.headers()["next-action"] && (request.postData() ?? "").includes("cut_review")) {
      dropped++;
      await route.fetch();
      return route.abort("connectionreset");
    }
    return route.continue();
  });
  await reviewer.keyboard.press("Enter");
  await expect(reviewer.getByTestId("review-notice")).toHaveText("Saved (already stored).");
  expect(dropped).toBe(1);
  await reviewer.unroute("**/review/**");
  await expect(reviewer.getByTestId("verdict-count")).toHaveText("1");
  await expect(reviewer.getByTestId("my-count")).toHaveText("1");
  await expect(reviewer.getByTestId("item-title")).not.toHaveText(firstItem!, { timeout: 15_000 });
  await expect(reviewer.getByTestId("agreement-summary")).toHaveText("Agreement: –");

  // Reviewer 2 (the admin also reviews): overlap 2 gives them the item reviewer 1 completed; their verdict agrees.
  const second = await browser.newPage({ storageState: storageStateOf("admin") });
  await openQueue(second);
  await expect(second.getByTestId("item-title")).toHaveText(firstItem!);
  await expect(second.getByTestId("completed-by")).toHaveText("1 reviewer done");
  {
    await second.keyboard.press("y");
    await expect(second.getByRole("option").first()).toHaveAttribute("data-decision", "confirm");
  }
  await second.keyboard.press("Enter");
  await expect(second.getByTestId("verdict-count")).toHaveText("2");
  await expect(second.getByTestId("done-count")).toHaveText("1");
  await expect(second.getByTestId("agreement-summary")).toContainText("100.0% on");
  await expect(second.getByTestId("agreement-panel")).toContainText("Cohen's κ");
  await expect(second.getByTestId("judge-dependency")).toContainText("accuracy 100.0%");

  // The first reviewer's screen shows the new agreement after their next save (here: a reload).
  await reviewer.reload();
  await expect(reviewer.getByTestId("agreement-summary")).toContainText("100.0% on");

  // A viewer reads progress and agreement but gets no item and cannot label.
  const viewer = await browser.newPage({ storageState: storageStateOf("viewer") });
  await openQueue(viewer);
  await expect(viewer.getByText("labeling needs the reviewer role")).toBeVisible();
  await expect(viewer.getByTestId("item-title")).toHaveCount(0);
  await viewer.keyboard.press("Enter");
  await viewer.keyboard.press("y");
  await expect(viewer.getByTestId("verdict-count")).toHaveText("2");
  const exported = await viewer.request.get(`/api/review/${queueId}/export?format=jsonl`);
  expect(exported.ok()).toBe(true);
  const lines = (await exported.text())
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { kind: string; reviewer: string });
  expect(
    lines
      .filter((l) => l.kind === "cut_review")
      .map((l) => l.reviewer)
      .sort(),
  ).toEqual(["admin@tracefold.local", "reviewer@tracefold.local"]);
  await Promise.all([reviewer.close(), second.close(), viewer.close()]);
});

test.describe("as a reviewer", () => {
  test.use({ storageState: storageStateOf("reviewer") });

  test("labels a failure category with the keyboard: category 3, the culprit, Enter", async ({ page }) => {
    await openQueue(page, `${NAME} failure`);
    await expect(page.getByTestId("verdict-count")).toHaveText("0");
    await expect(page.getByRole("heading", { name: "Projected view" })).toBeVisible();
    await expect(page.getByRole("heading", { name: /^Removed or changed/ })).toBeVisible();
    // Failure queues are blind by default: the judge's evidence waits for the reviewer's answer.
    await expect(page.getByTestId("judge-hidden")).toBeVisible();
    await page.keyboard.press("?");
    await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toContainText("failure category");
    await page.keyboard.press("Escape");
    await page.keyboard.press("3");
    await expect(page.getByRole("radio", { name: /Behavioral-contract loss/ })).toBeChecked();
    await page.getByLabel("Culprit object id").fill("function:exec:1");
    await page.getByLabel("Comment (optional)").fill("the contract was folded away");
    await page.locator("body").click({ position: { x: 1, y: 1 } });
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("verdict-count")).toHaveText("1");
    // Revealed on the answered item, in the three verdicts: counts, then the lost dependencies first and the restorable ones after them.
    await expect(page.getByTestId("failure-counts")).toHaveText(/^[1-9]\d* lost · \d+ restorable · \d+ visible/);
    const statuses = await page
      .getByTestId("failure-dependencies")
      .locator("li")
      .evaluateAll((items) => items.map((i) => i.getAttribute("data-status")));
    expect(statuses[0]).toBe("lost");
    expect(statuses).toEqual([...statuses.filter((s) => s === "lost"), ...statuses.filter((s) => s === "restorable")]);
    const labels = (await (await page.request.get(`/api/review/${page.url().split("/").pop()}/export?format=jsonl`)).text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(labels).toHaveLength(1);
    expect(labels[0]).toMatchObject({
      kind: "failure_category",
      category: "behavioral_contract",
      culpritId: "function:exec:1",
      comment: "the contract was folded away",
      reviewer: "reviewer@tracefold.local",
    });
  });

  test("answers an A/B item blind: b, a rationale, Enter", async ({ page }) => {
    await openQueue(page, `${NAME} ab`);
    await expect(page.getByRole("heading", { name: "Projection A" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Projection B" })).toBeVisible();
    // The item never names its policies (the queue's calibration panel below may).
    for (const policy of ["tool-prune", "oldest-turn"]) await expect(page.getByTestId("review-item")).not.toContainText(new RegExp(`\\b${policy}\\b`));
    await page.keyboard.press("b");
    await expect(page.getByRole("radio", { name: /B is better/ })).toBeChecked();
    await expect(page.getByLabel("Rationale")).toBeFocused();
    await page.keyboard.press("Escape"); // leaves the field: the next key is a shortcut again
    await page.keyboard.press("t");
    await expect(page.getByRole("radio", { name: /Tie/ })).toBeChecked();
    await page.getByLabel("Rationale").fill("both keep what the future reads");
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("verdict-count")).toHaveText("1");
  });
});
