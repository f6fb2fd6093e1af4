import { expect, test } from "@playwright/test";
import { storageStateOf } from "./fixtures/accounts";
import { CLAUDE_CODE_TRANSCRIPT, writeTruncatedTranscript } from "./fixtures/trace-files";

test.use({ storageState: storageStateOf("reviewer") });

test("a reviewer uploads a good and a bad file, then finds and opens the imported session", async ({ page }) => {
  const bad = writeTruncatedTranscript();
  await page.goto("/upload");
  await page.getByLabel("Choose trace files").setInputFiles([CLAUDE_CODE_TRANSCRIPT, bad.path]);
  // Both are checked for secrets in the browser first; nothing is sent until the upload is confirmed.
  await page.getByRole("button", { name: "Upload 2 files" }).click();

  const rows = page.getByTestId("upload-row");
  const good = rows.filter({ hasText: "transcript.jsonl" });
  const failed = rows.filter({ hasText: "truncated-session.jsonl" });

  await expect(good).toHaveAttribute("data-status", "imported");
  await expect(good).toContainText("Imported 1 session");
  await expect(good).toContainText("claude_code_jsonl");
  await expect(failed).toHaveAttribute("data-status", "failed");
  await expect(failed.getByRole("list", { name: "Errors" })).toContainText(`line ${bad.badLine}`);
  await expect(failed).toContainText("the file ends early");
  // A refused file shows a failed state where a success shows its full bar.
  await expect(failed.getByRole("img", { name: "truncated-session.jsonl failed: nothing was imported" })).toBeVisible();
  await expect(failed.getByRole("progressbar")).toHaveCount(0);
  await expect(good.getByRole("progressbar", { name: "Upload progress of transcript.jsonl" })).toHaveAttribute("value", "1");

  const sessionLink = good.getByRole("list", { name: "Sessions" }).getByRole("link").first();
  const title = (await sessionLink.textContent())?.trim() ?? "";
  expect(title.length).toBeGreaterThan(0);

  // The same bytes again are recognised, not imported twice.
  await page.getByLabel("Choose trace files").setInputFiles(CLAUDE_CODE_TRANSCRIPT);
  await page.getByRole("button", { name: "Upload 1 file" }).click();
  await expect(rows.first()).toHaveAttribute("data-status", "duplicate");
  await expect(rows.first()).toContainText("Already uploaded: 1 session");

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Traces" }).click();
  await expect(page).toHaveURL(/\/traces$/);
  const table = page.getByRole("table", { name: "Traces" });
  await page.getByLabel("Format").selectOption("claude_code_jsonl");
  await page.getByRole("searchbox", { name: "Search" }).fill(title.slice(0, 30));
  await expect(table.getByRole("link", { name: title })).toBeVisible();
  await expect(table.getByRole("row")).toHaveCount(2); // header + the one match
  await table.getByRole("link", { name: title }).click();
  await expect(page).toHaveURL(/\/sessions\/[\w-]+$/);
});
