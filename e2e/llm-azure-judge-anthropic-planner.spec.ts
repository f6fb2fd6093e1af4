import { expect, test, type Locator, type Page } from "@playwright/test";
import { startLlmStub, type LlmStub } from "../tests/helpers/llm-stub-server";
import { storageStateOf } from "./fixtures/accounts";
import { importForE2e } from "./fixtures/import-session";
import { clearLlmEndpoint } from "./fixtures/llm-endpoint";
import { isPlannerRequest, LLM_RUN_TRACE, PASSING_VERDICT, runLlmEvaluation, stubPlan } from "./fixtures/llm-evaluation-run";

/*
 * Issue 13's new-user walk: an admin gives the judge an Azure OpenAI deployment and the planner an
 * Anthropic model on the settings page — no default endpoint at all —, tests both connections, runs
 * an evaluation with the LLM planner and the LLM judge, and reads on the run page which model judged,
 * which planned, and what each purpose cost. Two stub servers stand in for Azure and Anthropic; each
 * must receive only its own purpose's calls.
 */
const ORIGIN = `http://127.0.0.1:${process.env.E2E_PORT ?? "3100"}`;
test.use({ storageState: storageStateOf("admin") });

let azure: LlmStub;
let anthropic: LlmStub;
test.beforeAll(async () => {
  importForE2e(LLM_RUN_TRACE);
  await clearLlmEndpoint(ORIGIN);
  // Each stub answers its own purpose and says so loudly when asked the other's question.
  azure = await startLlmStub((request) => (isPlannerRequest(request) ? "WRONG ENDPOINT: a planner call reached the judge" : PASSING_VERDICT));
  anthropic = await startLlmStub((request) => (isPlannerRequest(request) ? stubPlan(request) : "OK"));
});
test.afterAll(async () => {
  await clearLlmEndpoint(ORIGIN);
  await azure.close();
  await anthropic.close();
});

async function saveSlot(
  page: Page,
  region: string,
  fields: { provider: string; baseUrl: string; model: string; apiKey: string; input: string; output: string },
): Promise<Locator> {
  const form = page.getByRole("region", { name: region, exact: true });
  await form.getByLabel("Provider").selectOption(fields.provider);
  await form.getByLabel("Base URL").fill(fields.baseUrl);
  await form.getByLabel("Model").fill(fields.model);
  await form.getByLabel("Retries").fill("0");
  await form.getByLabel("API key").fill(fields.apiKey);
  await form.getByLabel("Input price", { exact: true }).fill(fields.input);
  await form.getByLabel("Output price", { exact: true }).fill(fields.output);
  await form.getByRole("button", { name: "Save endpoint" }).click();
  await expect(form.locator('[role="status"][data-revision="1"]')).toBeVisible();
  return form;
}

test("an Azure judge and an Anthropic planner, no default endpoint: both tested, both used, both named and priced on the run page", async ({ page }) => {
  await page.goto("/admin/settings");
  const judge = await saveSlot(page, "Judge model", {
    provider: "azure",
    baseUrl: `${azure.baseUrl}/openai`,
    model: "judge-deployment",
    apiKey: "azure-key-e2e-J7",
    input: "2",
    output: "8",
  });
  const planner = await saveSlot(page, "Planner model", {
    provider: "anthropic",
    baseUrl: anthropic.baseUrl,
    model: "claude-planner",
    apiKey: "sk-ant-e2e-P9",
    input: "3",
    output: "15",
  });
  await expect(page.getByRole("region", { name: "LLM endpoint", exact: true }).getByTestId("llm-key-status")).toHaveText("Stored key: not set");

  await judge.getByRole("button", { name: "Test connection" }).click();
  await expect(judge.getByTestId("llm-test-result")).toHaveText(/^Connected \(saved settings\): azure model \S+ answered “.*” in \d+ ms\.$/);
  expect(azure.requests.at(-1)!.headers["api-key"]).toBe("azure-key-e2e-J7");
  await planner.getByRole("button", { name: "Test connection" }).click();
  await expect(planner.getByTestId("llm-test-result")).toHaveText(/^Connected \(saved settings\): anthropic model \S+ answered “OK” in \d+ ms\.$/);
  expect(anthropic.requests.at(-1)!.path).toBe("/v1/messages");
  expect(anthropic.requests.at(-1)!.headers["x-api-key"]).toBe("sk-ant-e2e-P9");

  const azureBefore = azure.requests.length;
  const anthropicBefore = anthropic.requests.length;
  const name = `e2e azure judge ${Date.now()}`;
  await runLlmEvaluation(page, name);

  await expect(page.getByTestId("run-models")).toHaveText("Judged by azure:judge-deployment · planned by anthropic:claude-planner");
  await expect(page.getByTestId("run-self-judge")).toHaveCount(0);
  const judgeCalls = azure.requests.length - azureBefore;
  const plannerCalls = anthropic.requests.length - anthropicBefore;
  expect(judgeCalls).toBeGreaterThan(0);
  expect(plannerCalls).toBeGreaterThan(0);
  expect(azure.requests.slice(azureBefore).every((r) => !isPlannerRequest(r))).toBe(true);
  expect(anthropic.requests.slice(anthropicBefore).every((r) => isPlannerRequest(r))).toBe(true);

  // The stubs report 11 input and 7 output tokens per call: $0.000078 per judge call at $2/$8 per MTok,
  // $0.000138 per planner call at $3/$15.
  const usage = page.getByRole("table", { name: "LLM usage" });
  const cells = (purpose: string) => usage.locator(`tr[data-purpose="${purpose}"] td`);
  await expect(cells("judge").first()).toHaveText(judgeCalls.toLocaleString("en-US"));
  await expect(cells("judge").last()).toHaveText(`$${(judgeCalls * 78e-6).toFixed(4)}`);
  await expect(cells("planner").first()).toHaveText(plannerCalls.toLocaleString("en-US"));
  await expect(cells("planner").last()).toHaveText(`$${(plannerCalls * 138e-6).toFixed(4)}`);
  await expect(cells("total").last()).toHaveText(`$${(judgeCalls * 78e-6 + plannerCalls * 138e-6).toFixed(4)}`);
});
