import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { storageStateOf } from "./fixtures/accounts";
import { COMPACTED_TRANSCRIPT, E2E_ENV, importForE2e } from "./fixtures/import-session";

/**
 * Issue 16 item 6: a gold file imported from the review page becomes a calibration queue; a
 * reviewer labels a view blind with the keyboard only (1 = no impact, Enter saves) and the queue
 * shows the dependency judge's agreement with the labels and the labellers' agreement. The fixture
 * holds three units of the repo's gold set at one cut of COMPACTED_TRANSCRIPT (gold: no_impact,
 * impact, restorable); the judge reads the first as impact and agrees on the other two.
 */
const GOLD_FIXTURE = resolve("tests/fixtures/gold-small.jsonl");

test.beforeAll(() => {
  importForE2e(COMPACTED_TRANSCRIPT);
});

test("a reviewer imports a gold file, labels one view blind with the keyboard, and sees the judge's agreement", async ({ browser }) => {
  const page = await browser.newPage({ storageState: storageStateOf("reviewer") });
  await page.goto("/review");
  // The repo's whole gold set (1.6 MB, over a server action's 1 MB): most of its traces are not in this studio, so it is refused
  // whole, each unit located and naming the file to upload.
  await page.getByTestId("gold-file").setInputFiles(resolve("gold/judge-gold.jsonl"));
  const refused = page.getByRole("alert").filter({ hasText: "problems in the gold file; nothing was imported" });
  await expect(refused).toBeVisible();
  await expect(refused.getByRole("listitem").first()).toHaveText(
    /^line \d+, unit\.trace: trace [^ ]+ \(sha256 [0-9a-f]{12}…\) is not in the studio: upload that file on Traces, then import the gold file again \(expected a trace file imported into the studio\)$/,
  );
  await expect(page.getByTestId("queue-row").filter({ hasText: "Calibration:" })).toHaveCount(0);
  await page.getByTestId("gold-file").setInputFiles(GOLD_FIXTURE);
  await expect(page.getByRole("status").filter({ hasText: "Imported 3 gold units with 3 labels." })).toBeVisible();
  await page.getByRole("link", { name: "Open the queue" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Calibration: 3 gold units" })).toBeVisible();

  // Blind: the view and the real future, never the policy, its budget or a judge's verdict.
  const item = page.getByTestId("review-item");
  await expect(page.getByTestId("item-position")).toHaveText("Item 1 of 3");
  await expect(item.getByRole("heading", { name: /^The view \(\d+ messages\)$/ })).toBeVisible();
  await expect(item.getByRole("heading", { name: "The real future", exact: true })).toBeVisible();
  await expect(item).not.toContainText("tool-prune");
  await expect(item).not.toContainText("match-self-gc");

  const agreement = page.getByTestId("agreement-panel");
  await expect(agreement.getByTestId("verdicts-units")).toHaveText("0");
  await page.keyboard.press("1");
  await expect(page.getByRole("radio", { name: /No impact/ })).toBeChecked();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("item-position")).toHaveText("Item 2 of 3");
  await expect(page.getByRole("radio", { name: /No impact/ })).not.toBeChecked();

  // The reviewer agreed with the gold label: one view labelled twice, all three judged against the labels.
  await expect(agreement.getByTestId("verdicts-units")).toHaveText("1");
  await expect(agreement.getByTestId("verdicts-percent")).toHaveText(/^100\.0% \[/);
  const calibration = agreement.getByTestId("judge-calibration");
  await expect(calibration.getByTestId("calibration-units")).toHaveText("3 labelled views");
  await expect(calibration.getByTestId("calibration-three")).toHaveText("Three verdicts: accuracy 66.67% [20.77, 93.85] · Cohen's κ 0.5 [-0.111, 1]");
  await expect(calibration.getByRole("table", { name: /Confusion matrix/ }).getByRole("row", { name: /^no_impact/ })).toHaveText("no_impact001");
  await expect(calibration.getByTestId("calibration-disagreements")).toContainText("1 disagreement");
  await calibration.getByText("1 disagreement").click();
  await expect(calibration.getByTestId("calibration-disagreements")).toContainText("g-a322f0f939: labels no_impact, judge impact");

  // The export is the gold file's format: the gold label and the reviewer's beside it.
  const exported = await page.request.get(`/api/review/${page.url().split("/").pop()}/export?format=gold`);
  expect(exported.ok()).toBe(true);
  const lines = (await exported.text())
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { unit: { id: string }; label: { reviewer: string; verdict: string } });
  expect(lines.map((l) => [l.unit.id, l.label.reviewer, l.label.verdict])).toEqual([
    ["g-a322f0f939", "gold:L1", "no_impact"],
    ["g-a322f0f939", "reviewer@tracefold.local", "no_impact"],
    ["g-90ce08eef0", "gold:L1", "impact"],
    ["g-9694f59744", "gold:L1", "restorable"],
  ]);
  await page.close();
});

test("a viewer cannot import a gold file nor label, and reads the judge's agreement", async ({ browser }) => {
  // The CLI answers with the queue the same file made (imported from the page above, or here when this test runs alone).
  const imported = JSON.parse(
    execFileSync("npx", ["--no-install", "tsx", "cli/main.ts", "review", "import-gold", GOLD_FIXTURE, "--json"], {
      env: { ...process.env, ...E2E_ENV },
      encoding: "utf8",
    }).trim(),
  ) as { ok: boolean; queueId: string };
  expect(imported.ok).toBe(true);
  const page = await browser.newPage({ storageState: storageStateOf("viewer") });
  await page.goto("/review");
  await expect(page.getByRole("heading", { level: 1, name: "Review" })).toBeVisible();
  await expect(page.getByRole("heading", { name: /import a gold file/ })).toHaveCount(0);
  await expect(page.getByTestId("gold-file")).toHaveCount(0);
  await page.goto(`/review/${imported.queueId}`);
  await expect(page.getByText("labeling needs the reviewer role")).toBeVisible();
  await expect(page.getByTestId("review-item")).toHaveCount(0);
  await expect(page.getByTestId("judge-calibration").getByTestId("calibration-three")).toHaveText(/^Three verdicts: accuracy \d+(\.\d+)?% \[/);
  await page.close();
});
