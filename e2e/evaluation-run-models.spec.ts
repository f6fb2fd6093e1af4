import { expect, test, type Page } from "@playwright/test";
import { startLlmStub, type LlmStub } from "../tests/helpers/llm-stub-server";
import { storageStateOf } from "./fixtures/accounts";
import { importForE2e } from "./fixtures/import-session";
import { clearLlmEndpoint } from "./fixtures/llm-endpoint";
import { isPlannerRequest, LLM_RUN_TRACE, PASSING_VERDICT, runLlmEvaluation, stubPlan } from "./fixtures/llm-evaluation-run";

/*
 * A model per purpose, seen on the run page (issue 13 item 2): an evaluation with the LLM planner
 * and the LLM judge records which model planned and which judged. On one shared endpoint the page
 * warns that the judge grades its own planner's plans; with a judge model of its own it does not.
 */
const ORIGIN = `http://127.0.0.1:${process.env.E2E_PORT ?? "3100"}`;
test.use({ storageState: storageStateOf("admin") });

let stub: LlmStub;
test.beforeAll(async () => {
  importForE2e(LLM_RUN_TRACE);
  // Plans fold the first tool result the prompt names; verdicts always pass.
  stub = await startLlmStub((request) => (isPlannerRequest(request) ? stubPlan(request) : PASSING_VERDICT));
});
test.afterAll(async () => {
  await clearLlmEndpoint(ORIGIN);
  await stub.close();
});

async function saveEndpoint(page: Page, region: string, model: string, prices?: { input: string; output: string }): Promise<void> {
  await page.goto("/admin/settings");
  const form = page.getByRole("region", { name: region, exact: true });
  await form.getByLabel("Provider").selectOption("openai");
  await form.getByLabel("Base URL").fill(`${stub.baseUrl}/v1`);
  await form.getByLabel("Model").fill(model);
  await form.getByLabel("Retries").fill("0");
  if (prices) {
    await form.getByLabel("Input price", { exact: true }).fill(prices.input);
    await form.getByLabel("Output price", { exact: true }).fill(prices.output);
  }
  await form.getByRole("button", { name: "Save endpoint" }).click();
  await expect(form.getByRole("status").filter({ hasText: /^Saved revision \d+ at/ })).toBeVisible();
}

test("the run page names the planner and judge models and warns when they are the same model", async ({ page }) => {
  await saveEndpoint(page, "LLM endpoint", "shared-model");
  await runLlmEvaluation(page, `e2e one model ${Date.now()}`);
  await expect(page.getByTestId("run-models")).toHaveText("Judged by openai:shared-model · planned by openai:shared-model");
  await expect(page.getByTestId("run-self-judge")).toContainText("The judge model is the planner model (openai:shared-model)");
  const usage = page.getByRole("table", { name: "LLM usage" });
  await expect(usage.locator('tr[data-purpose="planner"]')).toContainText("— (no prices set)");
  await expect(usage.locator('tr[data-purpose="judge"]')).toContainText("— (no prices set)");

  // The stub reports 11 input and 7 output tokens per call: at $2 / $8 per MTok a judge call costs $0.000078.
  await saveEndpoint(page, "Judge model", "judge-model", { input: "2", output: "8" });
  const callsBefore = stub.requests.length;
  await runLlmEvaluation(page, `e2e own judge ${Date.now()}`);
  await expect(page.getByTestId("run-models")).toHaveText("Judged by openai:judge-model · planned by openai:shared-model");
  await expect(page.getByTestId("run-self-judge")).toHaveCount(0);
  const judgeRow = page.getByRole("table", { name: "LLM usage" }).locator('tr[data-purpose="judge"]');
  const models = stub.requests.slice(callsBefore).map((r) => ({ model: (r.body as { model: string }).model, planner: isPlannerRequest(r) }));
  expect(models.length).toBeGreaterThan(0);
  expect(models.filter((m) => !m.planner).every((m) => m.model === "judge-model")).toBe(true);
  expect(models.filter((m) => m.planner).every((m) => m.model === "shared-model")).toBe(true);
  // The run page counts exactly the judge calls the stub answered, priced at the judge endpoint's prices.
  const judgeCalls = models.filter((m) => !m.planner).length;
  await expect(judgeRow.locator("td").first()).toHaveText(judgeCalls.toLocaleString("en-US"));
  await expect(judgeRow.locator("td").last()).toHaveText(`$${(judgeCalls * 78e-6).toFixed(4)}`);
});
