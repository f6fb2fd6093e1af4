import { expect, test } from "@playwright/test";
import { startLlmStub, type LlmStub } from "../tests/helpers/llm-stub-server";
import { storageStateOf } from "./fixtures/accounts";
import { clearLlmEndpoint } from "./fixtures/llm-endpoint";

/*
 * The admin's LLM endpoint settings: saved through the form, the key write-only (never sent back to
 * the browser beyond its last four characters), and really used: "Test connection" calls a local
 * stub endpoint with the saved URL, model and key.
 */
const ORIGIN = `http://127.0.0.1:${process.env.E2E_PORT ?? "3100"}`;
const API_KEY = `sk-e2e-${Date.now().toString(36)}-Wq7Lp2Xz9Kd4`;

test.use({ storageState: storageStateOf("admin") });

let stub: LlmStub;
test.beforeAll(async () => {
  stub = await startLlmStub(() => "OK");
});
test.afterAll(async () => {
  await clearLlmEndpoint(ORIGIN);
  await stub.close();
});

test("an admin saves the endpoint, the key never comes back, and Test connection uses the saved settings", async ({ page }) => {
  const bodies: string[] = [];
  page.on("response", (response) => {
    void response.text().then(
      (text) => bodies.push(text),
      () => undefined,
    );
  });
  await page.goto("/admin/settings");
  const form = page.getByRole("region", { name: "LLM endpoint" });
  await expect(form.getByTestId("llm-key-status")).toHaveText("Stored key: not set");
  await form.getByLabel("Provider").selectOption("openai");
  await form.getByLabel("Base URL").fill(`${stub.baseUrl}/v1`);
  await form.getByLabel("Model").fill("stub-model");
  await form.getByLabel("Timeout per attempt (ms)").fill("5000");
  await form.getByLabel("Retries").fill("0");
  await form.getByLabel("API key").fill(API_KEY);
  await form.getByRole("button", { name: "Save endpoint" }).click();
  await expect(form.locator('[role="status"][data-revision="1"]')).toHaveText(/^Saved revision 1 at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\.$/);
  await expect(form.getByTestId("llm-key-status")).toHaveText(`Stored key: set — ends in …${API_KEY.slice(-4)}`);
  await expect(form.getByLabel("API key")).toHaveValue("");

  await page.reload();
  await expect(form.getByLabel("Model")).toHaveValue("stub-model");
  await expect(form.getByLabel("Base URL")).toHaveValue(`${stub.baseUrl}/v1`);
  await expect(form.getByLabel("API key")).toHaveValue("");
  await expect(form.getByTestId("llm-key-status")).toHaveText(`Stored key: set — ends in …${API_KEY.slice(-4)}`);

  await form.getByRole("button", { name: "Test connection" }).click();
  await expect(form.getByTestId("llm-test-result")).toHaveText(/^Connected \(saved settings\): openai model stub-model answered “OK” in \d+ ms\.$/);
  const call = stub.requests.at(-1)!;
  expect(call.path).toBe("/v1/chat/completions");
  expect(call.headers.authorization).toBe(`Bearer ${API_KEY}`);
  expect((call.body as { model: string }).model).toBe("stub-model");

  // Saving again with the key field empty keeps the key; the stub still gets it. The wait is on this
  // save's own status (revision 2): an earlier save's status cannot satisfy it (issue 18).
  await form.getByLabel("Model").fill("stub-model-2");
  await form.getByRole("button", { name: "Save endpoint" }).click();
  await expect(form.locator('[role="status"][data-revision="2"]')).toBeVisible();
  // The wait is on this test's own answer (the second since the reload): the first test's answer,
  // with the same text (the stub always names "stub-model"), cannot satisfy it.
  await form.getByRole("button", { name: "Test connection" }).click();
  await expect(form.locator('[data-testid="llm-test-result"][data-attempt="2"]')).toContainText("model stub-model answered");
  expect(stub.requests.at(-1)!.headers.authorization).toBe(`Bearer ${API_KEY}`);
  expect((stub.requests.at(-1)!.body as { model: string }).model).toBe("stub-model-2");

  // A failing endpoint is reported with its status, never with the key.
  stub.script({ status: 401, body: { error: { message: `invalid api key ${API_KEY}` } } });
  await form.getByRole("button", { name: "Test connection" }).click();
  await expect(form.getByTestId("llm-test-result")).toContainText("Connection failed (saved settings): openai answered HTTP 401");
  await expect(form.getByTestId("llm-test-result")).toContainText("[redacted]");

  expect(await page.content()).not.toContain(API_KEY);
  await expect.poll(() => bodies.length).toBeGreaterThan(3);
  expect(bodies.filter((b) => b.includes(API_KEY))).toEqual([]);
  expect(bodies.filter((b) => b.includes(API_KEY.slice(0, -4)))).toEqual([]);

  // Removing the endpoint turns LLM features off again.
  await form.getByRole("button", { name: "Remove endpoint" }).click();
  await expect(form.getByTestId("llm-key-status")).toHaveText("Stored key: not set");
  await form.getByRole("button", { name: "Test connection" }).click();
  await expect(form.getByTestId("llm-test-result")).toHaveText("Connection failed: no LLM endpoint is configured");
});

test("a judge model on its own endpoint: saved and tested in its own region; the planner without one falls back to the default", async ({ page }) => {
  const judgeStub = await startLlmStub(() => "OK");
  try {
    await page.goto("/admin/settings");
    const main = page.getByRole("region", { name: "LLM endpoint" });
    await main.getByLabel("Provider").selectOption("openai");
    await main.getByLabel("Base URL").fill(`${stub.baseUrl}/v1`);
    await main.getByLabel("Model").fill("default-model");
    await main.getByRole("button", { name: "Save endpoint" }).click();
    await expect(main.locator('[role="status"][data-revision="1"]')).toBeVisible();

    const judge = page.getByRole("region", { name: "Judge model", exact: true });
    await judge.getByLabel("Provider").selectOption("anthropic");
    await judge.getByLabel("Base URL").fill(judgeStub.baseUrl);
    await judge.getByLabel("Model").fill("claude-sonnet-4-5");
    await judge.getByLabel("API key").fill(`${API_KEY}-judge`);
    await judge.getByRole("button", { name: "Save endpoint" }).click();
    await expect(judge.locator('[role="status"][data-revision="1"]')).toBeVisible();
    await expect(judge.getByTestId("llm-key-status")).toHaveText("Stored key: set — ends in …udge");

    await judge.getByRole("button", { name: "Test connection" }).click();
    await expect(judge.getByTestId("llm-test-result")).toHaveText(/^Connected \(saved settings\): anthropic model stub-model answered “OK” in \d+ ms\.$/);
    expect(judgeStub.requests.at(-1)!.path).toBe("/v1/messages");
    expect(judgeStub.requests.at(-1)!.headers["x-api-key"]).toBe(`${API_KEY}-judge`);

    const planner = page.getByRole("region", { name: "Planner model" });
    const calls = stub.requests.length;
    await planner.getByRole("button", { name: "Test connection" }).click();
    await expect(planner.getByTestId("llm-test-result")).toContainText("this purpose has no endpoint of its own, so the default's answered");
    expect(stub.requests.length).toBe(calls + 1);
    expect((stub.requests.at(-1)!.body as { model: string }).model).toBe("default-model");

    await judge.getByRole("button", { name: "Remove endpoint" }).click();
    await expect(judge.getByTestId("llm-key-status")).toHaveText("Stored key: not set");
  } finally {
    await clearLlmEndpoint(ORIGIN);
    await judgeStub.close();
  }
});

test("invalid settings are refused field by field and nothing is stored", async ({ page }) => {
  await page.goto("/admin/settings");
  const form = page.getByRole("region", { name: "LLM endpoint" });
  await form.getByLabel("Provider").selectOption("anthropic");
  await form.getByLabel("Base URL").fill("ftp://example.test");
  await form.getByLabel("Model").fill("");
  await form.getByLabel("Timeout per attempt (ms)").fill("soon");
  await form.getByRole("button", { name: "Save endpoint" }).click();
  await expect(form.getByText("must be an http(s) URL")).toBeVisible();
  await expect(form.getByText("is required", { exact: true })).toBeVisible();
  await expect(form.getByText("must be a number of milliseconds")).toBeVisible();
  await page.reload();
  await expect(form.getByTestId("llm-key-status")).toHaveText("Stored key: not set");
  await expect(form.getByLabel("Model")).toHaveValue("");
});
