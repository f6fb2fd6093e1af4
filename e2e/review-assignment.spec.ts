import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { storageStateOf } from "./fixtures/accounts";
import { E2E_ENV, importForE2e } from "./fixtures/import-session";

const SWE_AGENT_TRACE = resolve("../shared/traces/swe_agent_traj/SWE-agent__SWE-agent/trajectories/demonstrations/ctf/crypto/katy.traj");
const NAME = `e2e assignment ${Date.now()}`;
const QUEUE_NAME = `${NAME} dependency`;

test.beforeAll(() => {
  importForE2e(SWE_AGENT_TRACE);
  execFileSync("npx", ["--no-install", "tsx", "e2e/fixtures/seed-review-queue.ts", "swe_agent_traj", "1", NAME, "dependency"], {
    env: { ...process.env, ...E2E_ENV },
    encoding: "utf8",
  });
});

async function openQueue(page: Page): Promise<void> {
  await page.goto("/review");
  await page.getByRole("link", { name: QUEUE_NAME, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: QUEUE_NAME })).toBeVisible();
}

/** The queue's row on /review says how many items are leased right now ("· N open"). */
async function expectOpenLeases(page: Page, open: number): Promise<void> {
  await expect(async () => {
    await page.goto("/review");
    const lease = page.getByTestId("queue-row").filter({ hasText: QUEUE_NAME }).getByRole("cell").last();
    if (open === 0) await expect(lease).not.toContainText("open", { timeout: 1_000 });
    else await expect(lease).toContainText(`· ${open} open`, { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
}

test("an admin assigns the first item to a named reviewer: only they are offered it; closing their tab gives it back at once", async ({ browser }) => {
  const admin = await browser.newPage({ storageState: storageStateOf("admin") });
  await openQueue(admin);
  const assign = admin.getByRole("form", { name: "Assignment" });
  await expect(assign.getByTestId("assignment-summary")).toHaveText("Every item is offered to every reviewer.");
  await assign.getByRole("checkbox", { name: /reviewer@tracefold\.local/ }).check();
  await assign.getByLabel("From item").fill("1");
  await assign.getByLabel("To item").fill("1");
  await assign.getByRole("button", { name: "Assign", exact: true }).click();
  await expect(assign.getByRole("status")).toHaveText("1 item assigned.");
  await expect(assign.getByTestId("assignment-summary")).toContainText("assigned: reviewer@tracefold.local (1)");

  // The admin (who also labels) held the first item since the page opened; a reload hands it back
  // (the page's beacon) and, the item being assigned to someone else, offers the admin the second.
  await admin.reload();
  await expect(admin.getByTestId("item-title")).toBeVisible();
  const adminItem = await admin.getByTestId("item-title").textContent();

  const reviewer = await browser.newPage({ storageState: storageStateOf("reviewer") });
  await openQueue(reviewer);
  await expect(reviewer.getByTestId("item-title")).toBeVisible();
  const reviewerItem = await reviewer.getByTestId("item-title").textContent();
  expect(reviewerItem).not.toBe(adminItem);

  // Both hold an item; closing the reviewer's tab releases theirs through the beacon, not the timeout.
  const watcher = await browser.newPage({ storageState: storageStateOf("viewer") });
  await expectOpenLeases(watcher, 2);
  await reviewer.close({ runBeforeUnload: true });
  await expectOpenLeases(watcher, 1);

  // Clearing gives the item back to everyone: once the admin has left (their beacon frees the second
  // item), the first item is what the queue offers them next.
  await admin.getByRole("form", { name: "Assignment" }).getByRole("button", { name: "Clear assignment" }).click();
  await expect(admin.getByRole("form", { name: "Assignment" }).getByTestId("assignment-summary")).toHaveText("Every item is offered to every reviewer.");
  await admin.goto("about:blank");
  await expectOpenLeases(watcher, 0);
  await openQueue(admin);
  await expect(admin.getByTestId("item-title")).toHaveText(reviewerItem!);
  await Promise.all([admin.close(), watcher.close()]);
});
