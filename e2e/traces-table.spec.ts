import { resolve } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { storageStateOf } from "./fixtures/accounts";
import { COMPACTED_TRANSCRIPT, importForE2e } from "./fixtures/import-session";

test.use({ storageState: storageStateOf("viewer"), viewport: { width: 1440, height: 900 } });

/** An Aider history whose model name is 56 characters long and whose start times carry no zone. */
const LONG_MODEL_TRACE = resolve("../shared/traces/aider_chat_md/AlexShchuka__mozgoslav/.aider.chat.history.md");
const LONG_MODEL = "lm_studio/qwen3.6-35b-a3b-uncensored-hauhaucs-aggressive";

test.beforeAll(() => {
  importForE2e(LONG_MODEL_TRACE);
  importForE2e(COMPACTED_TRANSCRIPT);
});

const table = (page: Page) => page.getByRole("table", { name: "Traces" });

test("at 1440 px every row is one line, dates are not clipped, long names are cut with their full text as a title", async ({ page }) => {
  await page.goto("/traces");
  await expect(table(page).getByTitle(LONG_MODEL).first()).toBeVisible();
  const layout = await page.locator(".dt-scroll").evaluate((scroll) => {
    const rows = [...scroll.querySelectorAll("tbody tr")].map((tr) => tr.getBoundingClientRect().height);
    const dates = [...scroll.querySelectorAll("tbody .dt-when")].map((span) => {
      const cell = span.closest("td")!;
      return { text: span.textContent ?? "", fits: cell.scrollWidth <= cell.clientWidth };
    });
    return { overflowX: scroll.scrollWidth - scroll.clientWidth, minRow: Math.min(...rows), maxRow: Math.max(...rows), dates };
  });
  expect(layout.overflowX).toBeLessThanOrEqual(0);
  expect(layout.maxRow - layout.minRow).toBeLessThan(2);
  expect(layout.dates.length).toBeGreaterThan(0);
  expect(layout.dates.filter((d) => !d.fits)).toEqual([]);
  expect(layout.dates.every((d) => / UTC$| \(no zone\)$/.test(d.text))).toBe(true);
  await expect(table(page).getByRole("columnheader", { name: "Started" })).toBeVisible();
});

test("filters, search and sort live in the URL: a link, Back and a reload show the same rows", async ({ page }) => {
  await page.goto("/traces");
  await page.getByLabel("Format").selectOption("aider_chat_md");
  await page.getByRole("searchbox", { name: "Search" }).fill("qwen3.6");
  await table(page)
    .getByRole("button", { name: /^Started/ })
    .click();
  const started = table(page).getByRole("columnheader", { name: /^Started/ });
  await expect(started).toHaveAttribute("aria-sort", "descending");
  await expect(page).toHaveURL(/[?&]format=aider_chat_md(&|$)/);
  await expect(page).toHaveURL(/[?&]q=qwen3\.6(&|$)/);
  await expect(page).toHaveURL(/[?&]sort=-startedAt(&|$)/);
  const rows = table(page).locator("tbody tr");
  const count = await rows.count();
  expect(count).toBeGreaterThan(0);
  const titles = await rows.locator("td:first-child").allTextContents();
  // The aider sessions start at zone-less local times, shown as written and sorted newest first.
  const starts = await rows.locator("td:nth-last-child(2)").allTextContents();
  expect(starts.every((s) => s.endsWith("(no zone)"))).toBe(true);
  expect([...starts].sort().reverse()).toEqual(starts);

  const expectRestored = async () => {
    await expect(page.getByLabel("Format")).toHaveValue("aider_chat_md");
    await expect(page.getByRole("searchbox", { name: "Search" })).toHaveValue("qwen3.6");
    await expect(started).toHaveAttribute("aria-sort", "descending");
    await expect(rows.locator("td:first-child")).toHaveText(titles);
  };
  await rows.first().getByRole("link").click();
  await expect(page).toHaveURL(/\/sessions\/[\w-]+$/);
  await page.goBack();
  await expect(page).toHaveURL(/\/traces\?/);
  await expectRestored();
  await page.reload();
  await expectRestored();

  // The link itself is the view: opened fresh, it shows the same rows.
  const link = page.url();
  await page.goto("/traces");
  await expect(page.getByLabel("Format")).toHaveValue("");
  await page.goto(link);
  await expectRestored();
});

test("the rows the filters keep download as one file, in either format, and nothing else", async ({ page }) => {
  await page.goto("/traces");
  await page.getByLabel("Format").selectOption("aider_chat_md");
  const rows = await table(page).locator("tbody tr").count();
  const form = page.getByRole("form", { name: /^Export the \d+ sessions? shown$/ });
  await expect(form).toHaveAccessibleName(`Export the ${rows} session${rows === 1 ? "" : "s"} shown`);
  const [jsonl] = await Promise.all([page.waitForEvent("download"), form.getByRole("button", { name: "JSONL" }).click()]);
  expect(jsonl.suggestedFilename()).toBe(`sessions-${rows}.tracefold.jsonl`);
  const lines = (await readDownload(jsonl))
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as { type: string; format?: string; sourceFormat?: string });
  const headers = lines.filter((line) => line.type === "session");
  expect(headers).toHaveLength(rows);
  const [otlp] = await Promise.all([page.waitForEvent("download"), form.getByRole("button", { name: "OTLP" }).click()]);
  expect(otlp.suggestedFilename()).toBe(`sessions-${rows}.otlp.jsonl`);
  const requests = (await readDownload(otlp))
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as { resourceSpans: unknown[] });
  expect(requests).toHaveLength(rows);
  await expect(page).toHaveURL(/format=aider_chat_md/);
});

async function readDownload(download: import("@playwright/test").Download): Promise<string> {
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
