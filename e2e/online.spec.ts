import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { storageStateOf } from "./fixtures/accounts";
import { writeUsageWeek } from "./fixtures/usage-log";

test.use({ storageState: storageStateOf("reviewer") });

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

test("a reviewer uploads a week of usage logs, maps the columns, reads the curves and exports them", async ({ page }) => {
  const week = writeUsageWeek();
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Online" }).click();
  await expect(page).toHaveURL(/\/online$/);

  // Column mapping: the timestamp column has a name Tracefold does not guess.
  await page.getByLabel("CSV or JSONL usage log").setInputFiles(week.path);
  const mapping = page.getByTestId("mapping-step");
  await expect(mapping.getByRole("alert")).toContainText("Map a column to: timestamp");
  await expect(page.getByRole("button", { name: /^Import/ })).toBeDisabled();
  await mapping.getByLabel("Timestamp").selectOption("event_time");
  await expect(mapping.getByRole("alert")).toHaveCount(0);
  await expect(page.getByTestId("usage-preview").getByRole("row")).toHaveCount(21); // header + 20 rows
  await page.getByRole("button", { name: /^Import usage-week\.csv/ }).click();
  await expect(page.getByRole("status")).toContainText(`Imported ${week.rows.toLocaleString("en-US")} calls`);
  await expect(page.getByRole("table", { name: "Usage logs" })).toContainText("usage-week.csv");

  // The report: two curves, the reduction with its interval.
  await page.getByRole("status").getByRole("link", { name: "Open the report" }).click();
  await expect(page).toHaveURL(/\/online\/[\w-]+$/);
  await expect(page.getByTestId("online-reduction")).toContainText(/Reduction -?\d+\.\d% \(95% CI -?\d+\.\d to -?\d+\.\d/);
  await expect(page.getByTestId("group-curves").locator(".recharts-line")).toHaveCount(2);
  await expect(page.getByTestId("reduction-curve").locator(".recharts-area")).toHaveCount(1);

  // Switch the window, then the time zone: the URL carries them and the report follows.
  await page.getByLabel("Window start").fill("10:00");
  await page.getByLabel("Window end").fill("18:00");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/window=10%3A00-18%3A00/);
  await expect(page.getByText(/Window 10:00–18:00 UTC/)).toBeVisible();
  await page.getByLabel("Time zone").fill("Asia/Kolkata");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/tz=Asia%2FKolkata/);
  await expect(page.getByText(/Window 10:00–18:00 Asia\/Kolkata/)).toBeVisible();
  await expect(page.getByTestId("group-curves")).toContainText("Asia/Kolkata");

  // Exports: the charts as a PNG, the hourly aggregates as CSV.
  const [png] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export PNG" }).click()]);
  expect(png.suggestedFilename()).toMatch(/\.png$/);
  expect([...readFileSync(await png.path()).subarray(0, 8)]).toEqual(PNG_SIGNATURE);
  const [csv] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
  const text = readFileSync(await csv.path(), "utf8");
  expect(text.split("\n")[0]).toBe("scope,hour,treatment_mean_input,control_mean_input,reduction_pct,ci95_low,ci95_high,treatment_calls,control_calls,treatment_accounts,control_accounts");
  const pooled = text.split("\n").filter((l) => l.startsWith("pooled,"));
  expect(pooled.map((l) => l.split(",")[1])).toEqual(["10:00", "11:00", "12:00", "13:00", "14:00", "15:00", "16:00", "17:00"]);
});

test.describe("as a viewer", () => {
  test.use({ storageState: storageStateOf("viewer") });

  test("a viewer reads the online page but cannot upload", async ({ page }) => {
    await page.goto("/online");
    await expect(page.getByRole("heading", { name: "Online A/B" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Upload a usage log" })).toHaveCount(0);
    const status = await page.evaluate(async () => (await fetch("/api/online/uploads?name=x.csv", { method: "PUT", body: "timestamp,account,inputTokens\n" })).status);
    expect(status).toBe(403);
  });
});
