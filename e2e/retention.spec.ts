import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { storageStateOf } from "./fixtures/accounts";
import { E2E_ENV, importForE2e } from "./fixtures/import-session";

/*
 * Deleting data as an admin would (issue 15, item 7): one session from its page, and everything
 * older than an age from Admin → retention, previewed first. Real traces nothing else here uploads.
 */
const ONE_SESSION = resolve("../shared/traces/otel_genai_spans/mozilla-ai__any-agent/tests/assets/AGNO_trace.json");
const AGED = resolve("../shared/traces/otel_genai_spans/mozilla-ai__any-agent/tests/assets/LANGCHAIN_trace.json");

test.use({ storageState: storageStateOf("admin") });

test("an admin deletes a session from its page: confirmed, gone from the table, its page a 404", async ({ page }) => {
  const [session] = importForE2e(ONE_SESSION);
  await page.goto(`/sessions/${session!.id}`);
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.accept();
  });
  await page.getByRole("button", { name: "Delete session" }).click();
  await expect(page).toHaveURL(/\/traces$/);
  expect(dialogs[0]).toContain("Delete this session and its uploaded file AGNO_trace.json?");
  expect((await page.request.get(`/sessions/${session!.id}`)).status()).toBe(404);
  expect((await page.request.get(`/api/v1/sessions/${session!.id}`)).status()).toBe(404);
});

test("a viewer sees no delete button", async ({ browser }) => {
  const [session] = importForE2e(AGED);
  const viewer = await browser.newPage({ storageState: storageStateOf("viewer") });
  await viewer.goto(`/sessions/${session!.id}`);
  await expect(viewer.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(viewer.getByRole("button", { name: "Delete session" })).toHaveCount(0);
  await viewer.close();
});

test("retention previews what is older than the age, asks for the word, and deletes exactly that", async ({ page }) => {
  const [session] = importForE2e(AGED);
  execFileSync("npx", ["--no-install", "tsx", "e2e/fixtures/age-upload.ts", session!.id, "4000"], { env: { ...process.env, ...E2E_ENV }, encoding: "utf8" });
  await page.goto("/admin/retention?olderThan=3650d");
  await expect(page.getByTestId("retention-preview")).toHaveText(/^1 upload \(1 session\) stored before /);
  await expect(page.getByRole("table", { name: "Uploads to delete" })).toContainText("LANGCHAIN_trace.json");
  await page.getByRole("button", { name: "Delete uploads older than 3650d" }).click();
  await expect(page.getByLabel("Type delete to confirm")).toHaveAccessibleDescription("type delete to confirm");
  await page.getByLabel("Type delete to confirm").fill("delete");
  await page.getByRole("button", { name: "Delete uploads older than 3650d" }).click();
  await expect(page.getByRole("status")).toHaveText("Deleted 1 upload (1 session).");
  await page.goto("/admin/retention?olderThan=3650d");
  await expect(page.getByTestId("retention-preview")).toHaveText("No upload is older than 3650d.");
  expect((await page.request.get(`/sessions/${session!.id}`)).status()).toBe(404);
  await page.goto("/admin/retention?olderThan=soon");
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("“soon” is not an age: use 30d, 12h or 90m.");
});
