import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { makeClaudeJsonl } from "../scripts/bench/make-claude-jsonl";
import { DEFAULT_ASYNC_IMPORT_MB } from "../server/trace/import/async-import-threshold";
import { storageStateOf } from "./fixtures/accounts";

/**
 * The real Claude Code session bench:load repeats into large uploads (scripts/bench/load/main.ts,
 * UPLOAD_SOURCE): 2.7 MB, one session, with tool calls and results.
 */
const SOURCE = resolve("../shared/traces/claude_code_jsonl/marot__spotter/test/fixtures/transcripts/258c7280-ae70-4798-800f-63464d01a85d.jsonl");

/**
 * A little over the threshold the e2e server runs with (it sets no TRACEFOLD_ASYNC_IMPORT_MB), so
 * the upload is queued for the studio's in-process worker (on by default for SQLite) and not
 * imported during the request. Redaction can only shrink a file by a few bytes per secret; 2 MB of
 * margin keeps it above the line either way.
 */
const FILE_BYTES = (DEFAULT_ASYNC_IMPORT_MB + 2) * 1024 * 1024;

test.use({ storageState: storageStateOf("reviewer") });

let dir: string;
let bigFile: string;

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "tracefold-e2e-queued-"));
  bigFile = join(dir, "large-session.jsonl");
  // A salt no other test uses: the bytes must be new to this server for the first upload to import.
  await makeClaudeJsonl(SOURCE, bigFile, FILE_BYTES, `e2eq${Date.now()}_`);
  expect(statSync(bigFile).size).toBeGreaterThan(DEFAULT_ASYNC_IMPORT_MB * 1024 * 1024);
});

test.afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("a reviewer's large upload is queued, imported by the worker with a busy bar, opens, and is a duplicate the second time", async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto("/upload");
  await page.getByLabel("Choose trace files").setInputFiles(bigFile);
  // The browser checks the whole file for secrets before the upload can be confirmed.
  await page.getByRole("button", { name: "Upload 1 file" }).click({ timeout: 30_000 });

  const row = page.getByTestId("upload-row").filter({ hasText: "large-session.jsonl" });
  // Once the bytes are sent the server answers "queued" at once; the row says a worker has it and
  // shows a busy (indeterminate) import bar instead of a full upload bar.
  await expect(row).toHaveAttribute("data-status", /^(queued for import|importing in a worker)$/, { timeout: 30_000 });
  // One locator for "an import bar without a value", so the check is a single look at a state that passes.
  const importBar = row.getByRole("progressbar", { name: "Import progress of large-session.jsonl" }).and(row.locator("progress:not([value])"));
  await expect(importBar).toBeVisible();
  await expect(row).toContainText("A job worker imports this large file");

  // The in-process worker imports it; the polled row ends with the session linked.
  await expect(row).toHaveAttribute("data-status", "imported", { timeout: 60_000 });
  await expect(row).toContainText("Imported 1 session");
  await expect(row).toContainText("claude_code_jsonl");
  await expect(importBar).toHaveCount(0);
  await expect(page.getByText("1 of 1 done")).toBeVisible();

  const sessionLink = row.getByRole("list", { name: "Sessions" }).getByRole("link").first();
  const title = (await sessionLink.textContent())?.trim() ?? "";
  expect(title.length).toBeGreaterThan(0);
  const href = (await sessionLink.getAttribute("href")) ?? "";
  expect(href).toMatch(/^\/sessions\/[\w-]+$/);

  // The same bytes again: queued like any large file, then recognised by the worker as a duplicate.
  await page.getByLabel("Choose trace files").setInputFiles(bigFile);
  await page.getByRole("button", { name: "Upload 1 file" }).click({ timeout: 30_000 });
  const again = page.getByTestId("upload-row").first();
  await expect(again).toHaveAttribute("data-status", "duplicate", { timeout: 60_000 });
  await expect(again).toContainText("Already uploaded: 1 session");
  await expect(again.getByRole("list", { name: "Sessions" }).getByRole("link").first()).toHaveAttribute("href", href);

  await sessionLink.click();
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(page.getByTestId("message-row").first()).toBeVisible();
});

test("a large upload the worker refuses ends as failed with its located error", async ({ page }) => {
  test.setTimeout(90_000);
  // Another salt (new bytes, not a duplicate) and a last record cut in half, as a crashed writer leaves it.
  const broken = join(dir, "large-broken.jsonl");
  await makeClaudeJsonl(SOURCE, broken, FILE_BYTES, `e2eqbad${Date.now()}_`);
  const badLine = readFileSync(broken).reduce((n, byte) => (byte === 0x0a ? n + 1 : n), 0) + 1;
  appendFileSync(broken, '{"type":"user","uuid":"cut-off","message":{"role":"user","content":"half');

  await page.goto("/upload");
  await page.getByLabel("Choose trace files").setInputFiles(broken);
  await page.getByRole("button", { name: "Upload 1 file" }).click({ timeout: 30_000 });
  const row = page.getByTestId("upload-row").filter({ hasText: "large-broken.jsonl" });
  await expect(row).toHaveAttribute("data-status", /^(queued for import|importing in a worker)$/, { timeout: 30_000 });
  await expect(row).toHaveAttribute("data-status", "failed", { timeout: 60_000 });
  await expect(row.getByRole("alert")).toContainText("not a valid");
  await expect(row.getByRole("list", { name: "Errors" })).toContainText(`line ${badLine}`);
  await expect(row.getByRole("list", { name: "Errors" })).toContainText("the file ends early");
  await expect(row.getByRole("progressbar", { name: "Import progress of large-broken.jsonl" })).toHaveCount(0);
});
