import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { storageStateOf } from "./fixtures/accounts";
import { resetRedactionSettings } from "./fixtures/redaction-settings";

/*
 * Redaction as a user meets it: the upload page previews what will be redacted before anything is
 * sent (masked, never the secret), the admin's per-rule switches and allow-list change that preview
 * and the stored file alike, and the session view marks where text was redacted.
 */
const ORIGIN = `http://127.0.0.1:${process.env.E2E_PORT ?? "3100"}`;
const OPENAI_KEY = "sk-proj-Qz8vN3kT5mW1xR7yL2pA9dF4gH6jK0cB";
const TEST_KEY = "sk-test-fixture0000000000000000000";
const BEARER = "eyZ0aGlzLWlzLWEtYmVhcmVyLXRva2VuLTk4NzY1NDMyMTA";

/** A pretty-printed Chat Completions file (one message per few lines), unique per call. */
function writeChat(name: string, messages: { role: string; content: string }[]): string {
  const path = join(mkdtempSync(join(tmpdir(), "tracefold-e2e-redact-")), name);
  writeFileSync(path, `${JSON.stringify([{ role: "system", content: `Redaction check ${Date.now()}-${Math.random()}` }, ...messages], null, 2)}\n`);
  return path;
}

/** Every PUT to the upload route the page makes. */
function watchUploads(page: Page): string[] {
  const puts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "PUT" && new URL(request.url()).pathname === "/api/uploads") puts.push(request.url());
  });
  return puts;
}

test.describe("as a reviewer", () => {
  test.use({ storageState: storageStateOf("reviewer") });

  test("the upload page previews what will be redacted, sends nothing until confirmed, and the session marks the redaction", async ({ page }) => {
    const file = writeChat("leaky-chat.json", [
      { role: "user", content: `Call the API with ${OPENAI_KEY} please` },
      {
        role: "assistant",
        content:
          'The site data is {"url":"https://relaygpu.com","logo":{"@type":"ImageObject"}} and the Elixir is token = Base.url_encode64(:crypto.strong_rand_bytes(24))',
      },
      { role: "user", content: "and DB_PASSWORD=hunter2 for the database" },
    ]);
    const puts = watchUploads(page);
    await page.goto("/upload");
    await page.getByLabel("Choose trace files").setInputFiles(file);
    const row = page.getByTestId("upload-row").filter({ hasText: "leaky-chat.json" });
    await expect(row).toHaveAttribute("data-status", "ready");
    const preview = row.getByTestId("redaction-preview");
    await expect(preview).toContainText("2 secrets will be redacted before the file is stored");
    const items = preview.getByRole("list", { name: "Secrets to redact" }).getByRole("listitem");
    await expect(items).toHaveCount(2);
    await expect(items.nth(0)).toContainText('line 8 · openai_key · "content": "Call the API with sk-p… (40 chars) please"');
    await expect(items.nth(1)).toContainText('line 16 · password_assignment · "content": "and DB_PASSWORD=h… (7 chars) for the database"');
    expect(await page.content()).not.toContain(OPENAI_KEY.slice(0, 8));
    expect(puts, "nothing is sent before the user confirms").toEqual([]);

    await page.getByRole("button", { name: "Upload 1 file" }).click();
    await expect(row).toHaveAttribute("data-status", "imported");
    expect(puts).toHaveLength(1);
    await expect(row.getByTestId("redaction-report")).toContainText("Redacted 2 secrets before storing");

    await row.getByRole("list", { name: "Sessions" }).getByRole("link").first().click();
    await expect(page).toHaveURL(/\/sessions\/[\w-]+$/);
    const markers = page.getByTestId("message-row").getByTestId("redaction-marker");
    await expect(page.getByRole("heading", { level: 1 }).getByTestId("redaction-marker")).toHaveText("[REDACTED:openai_key]");
    await expect(markers.filter({ hasText: "[REDACTED:openai_key]" })).toBeVisible();
    await expect(markers.filter({ hasText: "[REDACTED:openai_key]" })).toHaveAttribute("title", /Redacted on upload: a secret of kind openai_key/);
    await expect(markers.filter({ hasText: "[REDACTED:password_assignment]" })).toBeVisible();
    await expect(page.getByText("https://relaygpu.com", { exact: false })).toBeVisible();
    expect(await page.content()).not.toContain("hunter2");
  });

  test("Cancel drops the picked files without sending them", async ({ page }) => {
    const puts = watchUploads(page);
    await page.goto("/upload");
    await page.getByLabel("Choose trace files").setInputFiles(writeChat("cancelled.json", [{ role: "user", content: "nothing secret" }]));
    const row = page.getByTestId("upload-row").filter({ hasText: "cancelled.json" });
    await expect(row.getByTestId("redaction-preview")).toHaveText("No secrets found: the file will be stored as it is.");
    await page.getByRole("button", { name: "Cancel", exact: true }).click();
    await expect(row).toHaveCount(0);
    expect(puts).toEqual([]);
  });
});

test.describe("as an admin", () => {
  test.use({ storageState: storageStateOf("admin") });
  test.afterAll(async () => {
    await resetRedactionSettings(ORIGIN);
  });

  test("per-rule switches and the allow-list are saved, checked field by field, and change the upload preview", async ({ page }) => {
    await page.goto("/admin/settings");
    const form = page.getByRole("region", { name: "Upload redaction" });
    const allowList = form.getByLabel("Allow-list: values that are never secrets");

    await allowList.fill("/[oops/");
    await form.getByRole("button", { name: "Save" }).click();
    await expect(form.locator("#redaction-allowList-error")).toContainText("entry 1: is not a valid regular expression");
    await expect(allowList).toHaveValue("/[oops/");

    await form.getByRole("checkbox", { name: "Rule bearer_token" }).uncheck();
    await allowList.fill("/sk-test-[a-z0-9]+/");
    await form.getByRole("button", { name: "Save" }).click();
    await expect(form.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
    await page.reload();
    await expect(form.getByRole("checkbox", { name: "Rule bearer_token" })).not.toBeChecked();
    await expect(form.getByRole("checkbox", { name: "Rule openai_key" })).toBeChecked();
    await expect(allowList).toHaveValue("/sk-test-[a-z0-9]+/");

    await page.goto("/upload");
    const file = writeChat("settings-chat.json", [
      { role: "user", content: `real ${OPENAI_KEY}, fixture ${TEST_KEY}` },
      { role: "assistant", content: `curl -H "Authorization: Bearer ${BEARER}" https://api.example.com` },
    ]);
    await page.getByLabel("Choose trace files").setInputFiles(file);
    const row = page.getByTestId("upload-row").filter({ hasText: "settings-chat.json" });
    const items = row.getByRole("list", { name: "Secrets to redact" }).getByRole("listitem");
    await expect(row.getByTestId("redaction-preview")).toContainText("1 secret will be redacted");
    await expect(items).toHaveCount(1);
    await expect(items.first()).toContainText("openai_key");
    await page.getByRole("button", { name: "Upload 1 file" }).click();
    await expect(row).toHaveAttribute("data-status", "imported");
    await expect(row.getByTestId("redaction-report")).toContainText("Redacted 1 secret before storing");
  });
});
