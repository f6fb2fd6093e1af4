import { expect, test } from "@playwright/test";
import { resolve } from "node:path";
import { storageStateOf } from "./fixtures/accounts";
import { importForE2e, type ImportedSession } from "./fixtures/import-session";

test.use({ storageState: storageStateOf("viewer") });

/**
 * Issue 17, item 6: an Aider history's "chat started" block with no message is imported (the
 * MANIFEST counts it) but shown as empty, without a Replay button, and its replay page says why
 * there is nothing to replay instead of showing a slider over 0 safe cuts.
 */
const AIDER_WITH_EMPTY_BLOCK = resolve("../shared/traces/aider_chat_md/AFI-Protocol__afi-core/.aider.chat.history.md");

let empty: ImportedSession;
let full: ImportedSession;
test.beforeAll(() => {
  const sessions = importForE2e(AIDER_WITH_EMPTY_BLOCK);
  empty = sessions.find((s) => s.messages === 0)!;
  full = sessions.find((s) => s.messages > 2)!;
  expect(empty, "the file has an empty chat block").toBeTruthy();
});

test("an empty session shows as empty, with no way into a replay", async ({ page }) => {
  await page.goto(`/sessions/${empty.id}`);
  const header = page.getByTestId("session-header");
  await expect(header.getByTestId("empty-session")).toHaveText("empty session · nothing to replay");
  await expect(header.getByTestId("compact-link")).toHaveCount(0);
  await page.goto(`/sessions/${empty.id}/compact`);
  await expect(page.getByTestId("nothing-to-replay")).toContainText("This session has no messages");
  await page.getByRole("link", { name: "Back to the session" }).click();
  await expect(page).toHaveURL(new RegExp(`/sessions/${empty.id}$`));
});

test("a session with messages keeps its Replay button", async ({ page }) => {
  await page.goto(`/sessions/${full.id}`);
  await expect(page.getByTestId("session-header").getByTestId("compact-link")).toBeVisible();
});
