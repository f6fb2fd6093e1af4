import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { getEffectiveLlmConfig, getLlmClient, hasLlmEndpoint } from "../../server/llm/effective-config";
import { LlmError } from "../../server/llm/errors";
import { testLlmConnection } from "../../server/llm/test-connection";
import {
  clearLlmSettings,
  getLlmSettingsView,
  LlmSettingsError,
  LlmSettingsFormSchema,
  saveLlmSettings,
  storedLlmConfig,
} from "../../server/llm/stored-settings";
import { startLlmStub, type LlmStub } from "../helpers/llm-stub-server";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";

const API_KEY = "sk-test-Zr8pQ2mV7nX4kL9wT1yB6cD3";
const ENV = { TRACEFOLD_SECRET_KEY: "db-test-secret-key-0123456789abcdef" };
const form = (fields: Record<string, string>) => LlmSettingsFormSchema.parse(fields);

test("environment per purpose: a model alone rides the default endpoint; a provider makes a whole endpoint; unset purposes use the default", async () => {
  const env = {
    TRACEFOLD_LLM_PROVIDER: "openai",
    TRACEFOLD_LLM_MODEL: "gpt-4.1",
    TRACEFOLD_LLM_API_KEY: "sk-default-123456",
    TRACEFOLD_LLM_JUDGE_MODEL: "o3",
    TRACEFOLD_LLM_PLANNER_PROVIDER: "anthropic",
    TRACEFOLD_LLM_PLANNER_MODEL: "claude-sonnet-4-5",
    TRACEFOLD_LLM_PLANNER_API_KEY: "sk-ant-planner-123",
  };
  const judge = await getEffectiveLlmConfig(undefined, env, "judge");
  assert.deepEqual(
    [judge?.source, judge?.slot, judge?.config.provider, judge?.config.model, judge?.config.apiKey],
    ["env", "judge", "openai", "o3", "sk-default-123456"],
  );
  const planner = await getEffectiveLlmConfig(undefined, env, "planner");
  assert.deepEqual(
    [planner?.slot, planner?.config.provider, planner?.config.baseUrl, planner?.config.apiKey],
    ["planner", "anthropic", "https://api.anthropic.com", "sk-ant-planner-123"],
  );
  const summarizer = await getEffectiveLlmConfig(undefined, env, "summarizer");
  assert.deepEqual([summarizer?.slot, summarizer?.config.model], ["default", "gpt-4.1"]);
  await assert.rejects(getEffectiveLlmConfig(undefined, { ...env, TRACEFOLD_LLM_AB_JUDGE_PROVIDER: "gemini" }, "ab-judge"), /TRACEFOLD_LLM_AB_JUDGE_PROVIDER/);
});

test("environment with purpose endpoints only: each purpose uses its own, the others have none and fail naming themselves", async () => {
  const env = {
    TRACEFOLD_LLM_JUDGE_PROVIDER: "azure",
    TRACEFOLD_LLM_JUDGE_MODEL: "judge-deployment",
    TRACEFOLD_LLM_JUDGE_API_KEY: "az-key-123",
    TRACEFOLD_LLM_JUDGE_BASE_URL: "http://127.0.0.1:9/openai",
  };
  assert.equal(await getEffectiveLlmConfig(undefined, env), undefined, "no default endpoint");
  const judge = await getEffectiveLlmConfig(undefined, env, "judge");
  assert.deepEqual([judge?.source, judge?.slot, judge?.config.provider, judge?.config.model], ["env", "judge", "azure", "judge-deployment"]);
  assert.equal(await getEffectiveLlmConfig(undefined, env, "planner"), undefined);
  assert.equal(
    await getEffectiveLlmConfig(undefined, { TRACEFOLD_LLM_PLANNER_MODEL: "m", ...env }, "planner"),
    undefined,
    "a model alone needs a default endpoint to ride",
  );
  assert.equal(await hasLlmEndpoint(undefined, env), true);
  assert.equal(await hasLlmEndpoint(undefined, env, "judge"), true);
  assert.equal(await hasLlmEndpoint(undefined, env, "planner"), false);
  const client = (await getLlmClient(undefined, env))!;
  assert.deepEqual([client.id, client.idFor?.("judge"), client.idFor?.("planner")], ["azure:judge-deployment", "azure:judge-deployment", "none"]);
  await assert.rejects(
    client.complete({ messages: [{ role: "user", content: "plan" }], maxTokens: 8, purpose: "planner" }),
    (error: unknown) => error instanceof LlmError && error.code === "not_configured" && /no LLM endpoint for the planner model/.test(error.message),
  );
});

for (const engine of ENGINES) {
  describe(`LLM endpoint settings on ${engine}`, () => {
    let t: TestDb;
    let stub: LlmStub;
    before(async () => {
      t = await createTestDb(engine);
      stub = await startLlmStub(() => "OK");
    });
    after(async () => {
      await stub.close();
      await t.close();
    });

    test("the stored row holds the key only encrypted; the view shows its last four characters at most", async () => {
      const view = await saveLlmSettings(
        t.db,
        form({ provider: "openai", baseUrl: `${stub.baseUrl}/v1`, model: "stub-model", timeoutMs: "5000", maxRetries: "1", apiKey: API_KEY }),
        "admin-id",
        ENV,
      );
      assert.deepEqual(view, {
        provider: "openai",
        baseUrl: `${stub.baseUrl}/v1`,
        model: "stub-model",
        timeoutMs: 5000,
        maxRetries: 1,
        revision: 1,
        apiKey: { state: "set", endsWith: "6cD3" },
      });
      const rows = await t.db.setting.findMany();
      const raw = JSON.stringify(rows);
      assert.ok(!raw.includes(API_KEY), "the plaintext key is in the Setting table");
      assert.ok(!raw.includes(API_KEY.slice(0, 12)) && !raw.includes(Buffer.from(API_KEY).toString("base64").slice(0, 12)));
      const stored = JSON.parse(rows.find((r) => r.key === "llm.endpoint")!.value) as Record<string, unknown>;
      assert.deepEqual(Object.keys(stored).sort(), ["baseUrl", "maxRetries", "model", "provider", "revision", "sealedApiKey", "timeoutMs"]);
      assert.match(String(stored.sealedApiKey), /^v1\./);
      assert.ok(!JSON.stringify(view).includes(API_KEY.slice(0, -4)));
    });

    test("the saved endpoint is what the server calls, with the decrypted key, when the environment sets none", async () => {
      const effective = await getEffectiveLlmConfig(t.db, ENV);
      assert.equal(effective?.source, "settings");
      assert.equal(effective?.config.apiKey, API_KEY);
      const client = await getLlmClient(t.db, ENV);
      assert.equal(client?.id, "openai:stub-model");
      const before = stub.requests.length;
      const result = await testLlmConnection(t.db, ENV);
      assert.equal(result.ok, true, JSON.stringify(result));
      assert.equal(result.ok && result.source, "settings");
      const sent = stub.requests[before]!;
      assert.equal(sent.path, "/v1/chat/completions");
      assert.equal(sent.headers.authorization, `Bearer ${API_KEY}`);
      assert.equal((sent.body as { model: string }).model, "stub-model");
      assert.ok(!JSON.stringify(result).includes(API_KEY));
    });

    test("environment variables win over the stored settings", async () => {
      const env = {
        ...ENV,
        TRACEFOLD_LLM_PROVIDER: "anthropic",
        TRACEFOLD_LLM_MODEL: "env-model",
        TRACEFOLD_LLM_API_KEY: "env-key-123456789",
        TRACEFOLD_LLM_BASE_URL: stub.baseUrl,
      };
      const effective = await getEffectiveLlmConfig(t.db, env);
      assert.deepEqual([effective?.source, effective?.config.provider, effective?.config.model], ["env", "anthropic", "env-model"]);
      const result = await testLlmConnection(t.db, env);
      assert.equal(result.ok && result.source, "env");
      assert.equal(stub.requests.at(-1)!.path, "/v1/messages");
    });

    test("an empty key field keeps the stored key; the remove box removes it", async () => {
      const base = { provider: "openai", baseUrl: `${stub.baseUrl}/v1`, model: "stub-model-2", timeoutMs: "5000", maxRetries: "0" };
      const kept = await saveLlmSettings(t.db, form({ ...base, apiKey: "" }), "admin-id", ENV);
      assert.equal(kept.apiKey.state, "set");
      assert.equal(kept.revision, 2, "each save of the row counts, so its status names this save");
      assert.equal((await storedLlmConfig(t.db, ENV))?.apiKey, API_KEY);
      const removed = await saveLlmSettings(t.db, form({ ...base, apiKey: "", clearApiKey: "on" }), "admin-id", ENV);
      assert.deepEqual(removed.apiKey, { state: "unset" });
      assert.equal((await storedLlmConfig(t.db, ENV))?.apiKey, undefined);
      // Anthropic needs a key: refused on the field, nothing saved.
      await assert.rejects(
        saveLlmSettings(t.db, form({ ...base, provider: "anthropic", apiKey: "" }), "admin-id", ENV),
        (e: unknown) => e instanceof LlmSettingsError && e.field === "apiKey",
      );
      assert.equal((await getLlmSettingsView(t.db, ENV))?.provider, "openai");
    });

    test("with another secret key the stored key is unreadable: the page says so and the connection test explains, leaking nothing", async () => {
      await saveLlmSettings(
        t.db,
        form({ provider: "openai", baseUrl: `${stub.baseUrl}/v1`, model: "stub-model", timeoutMs: "5000", maxRetries: "0", apiKey: API_KEY }),
        "admin-id",
        ENV,
      );
      const other = { TRACEFOLD_SECRET_KEY: "a-different-secret-key-fedcba9876543210" };
      const view = await getLlmSettingsView(t.db, other);
      assert.equal(view?.apiKey.state, "unreadable");
      const result = await testLlmConnection(t.db, other);
      assert.equal(result.ok, false);
      assert.match(!result.ok ? result.message : "", /different secret key/);
      assert.ok(!JSON.stringify([view, result]).includes(API_KEY));
      // NEXTAUTH_SECRET is the fallback when TRACEFOLD_SECRET_KEY is unset.
      await saveLlmSettings(t.db, form({ provider: "openai", model: "m", timeoutMs: "5000", maxRetries: "0", apiKey: API_KEY }), "admin-id", {
        NEXTAUTH_SECRET: "nextauth-secret-0123456789abcdef",
      });
      assert.equal((await storedLlmConfig(t.db, { NEXTAUTH_SECRET: "nextauth-secret-0123456789abcdef" }))?.apiKey, API_KEY);
      assert.equal((await storedLlmConfig(t.db, { NEXTAUTH_SECRET: "nextauth-secret-0123456789abcdef" }))?.baseUrl, "https://api.openai.com/v1");
    });

    test("a purpose's own endpoint: stored and sealed apart, used for that purpose only; removed, the purpose uses the default again", async () => {
      await saveLlmSettings(
        t.db,
        form({ provider: "openai", baseUrl: `${stub.baseUrl}/v1`, model: "default-model", timeoutMs: "5000", maxRetries: "0", apiKey: API_KEY }),
        "admin-id",
        ENV,
      );
      const judgeKey = "sk-ant-judge-Hq3Wm9Zp5Tx2";
      const view = await saveLlmSettings(
        t.db,
        form({
          slot: "judge",
          provider: "anthropic",
          baseUrl: stub.baseUrl,
          model: "claude-sonnet-4-5",
          timeoutMs: "5000",
          maxRetries: "0",
          reasoning: "off",
          priceInput: "3",
          priceCachedInput: "",
          priceOutput: "15",
          apiKey: judgeKey,
        }),
        "admin-id",
        ENV,
      );
      assert.deepEqual([view.priceInput, view.priceCachedInput, view.priceOutput], [3, undefined, 15], "an empty price is unset, not 0");
      assert.deepEqual([view.provider, view.model, view.reasoning, view.apiKey], ["anthropic", "claude-sonnet-4-5", "off", { state: "set", endsWith: "5Tx2" }]);
      const row = await t.db.setting.findUniqueOrThrow({ where: { key: "llm.endpoint.judge" } });
      assert.ok(!row.value.includes(judgeKey));
      assert.deepEqual(await getLlmSettingsView(t.db, ENV, "planner"), undefined);

      const judge = await getEffectiveLlmConfig(t.db, ENV, "judge");
      assert.deepEqual([judge?.source, judge?.slot, judge?.config.provider, judge?.config.apiKey], ["settings", "judge", "anthropic", judgeKey]);
      const planner = await getEffectiveLlmConfig(t.db, ENV, "planner");
      assert.deepEqual([planner?.slot, planner?.config.model, planner?.config.apiKey], ["default", "default-model", API_KEY]);

      const client = (await getLlmClient(t.db, ENV))!;
      assert.deepEqual(
        [client.id, client.idFor?.("judge"), client.idFor?.("planner")],
        ["openai:default-model", "anthropic:claude-sonnet-4-5", "openai:default-model"],
      );
      const before = stub.requests.length;
      const judged = await client.complete({ messages: [{ role: "user", content: "judge this" }], maxTokens: 8, purpose: "judge" });
      const planned = await client.complete({ messages: [{ role: "user", content: "plan this" }], maxTokens: 8, purpose: "planner" });
      assert.equal(judged.costUsd, (11 * 3 + 7 * 15) / 1e6, "the judge's endpoint prices its calls");
      assert.equal(planned.costUsd, undefined, "the default endpoint has no prices");
      assert.deepEqual(
        stub.requests.slice(before).map((r) => [r.path, r.headers["x-api-key"] ?? r.headers.authorization]),
        [
          ["/v1/messages", judgeKey],
          ["/v1/chat/completions", `Bearer ${API_KEY}`],
        ],
      );

      const tested = await testLlmConnection(t.db, ENV, "judge");
      assert.ok(tested.ok && tested.slot === "judge" && tested.provider === "anthropic", JSON.stringify(tested));
      await clearLlmSettings(t.db, "judge");
      assert.equal((await getEffectiveLlmConfig(t.db, ENV, "judge"))?.slot, "default");
      assert.equal((await getLlmSettingsView(t.db, ENV))?.model, "default-model", "clearing a purpose leaves the default");
    });

    test("purpose endpoints without a default one: an Azure judge and an Anthropic planner each answer their own calls", async () => {
      await clearLlmSettings(t.db);
      const judgeStub = await startLlmStub(() => "OK");
      try {
        await saveLlmSettings(
          t.db,
          form({
            slot: "judge",
            provider: "azure",
            baseUrl: `${judgeStub.baseUrl}/openai`,
            model: "judge-deployment",
            timeoutMs: "5000",
            maxRetries: "0",
            apiKey: "az-judge-key-77",
          }),
          "admin-id",
          ENV,
        );
        await saveLlmSettings(
          t.db,
          form({
            slot: "planner",
            provider: "anthropic",
            baseUrl: stub.baseUrl,
            model: "claude-planner",
            timeoutMs: "5000",
            maxRetries: "0",
            apiKey: "sk-ant-planner-88",
          }),
          "admin-id",
          ENV,
        );
        assert.equal(await getEffectiveLlmConfig(t.db, ENV), undefined, "no default endpoint is stored");
        assert.equal(await hasLlmEndpoint(t.db, ENV, "judge"), true);
        assert.equal(await hasLlmEndpoint(t.db, ENV, "summarizer"), false);
        const client = (await getLlmClient(t.db, ENV))!;
        assert.deepEqual([client.idFor?.("judge"), client.idFor?.("planner")], ["azure:judge-deployment", "anthropic:claude-planner"]);
        await client.complete({ messages: [{ role: "user", content: "judge this" }], maxTokens: 8, purpose: "judge" });
        await client.complete({ messages: [{ role: "user", content: "plan this" }], maxTokens: 8, purpose: "planner" });
        assert.match(judgeStub.requests.at(-1)!.path, /^\/openai\/(deployments\/judge-deployment\/)?(chat\/completions|responses)/);
        assert.equal(judgeStub.requests.at(-1)!.headers["api-key"], "az-judge-key-77");
        assert.deepEqual([stub.requests.at(-1)!.path, stub.requests.at(-1)!.headers["x-api-key"]], ["/v1/messages", "sk-ant-planner-88"]);
        await assert.rejects(
          client.complete({ messages: [{ role: "user", content: "summarize" }], maxTokens: 8, purpose: "summarizer" }),
          /no LLM endpoint for the summarizer model/,
        );
        const tested = await testLlmConnection(t.db, ENV, "judge");
        assert.ok(tested.ok && tested.slot === "judge" && tested.provider === "azure", JSON.stringify(tested));
      } finally {
        await clearLlmSettings(t.db, "judge");
        await clearLlmSettings(t.db, "planner");
        await judgeStub.close();
      }
    });

    test("the form refuses bad input field by field; clearing forgets the endpoint", async () => {
      const bad = LlmSettingsFormSchema.safeParse({ provider: "gemini", baseUrl: "ftp://x", model: "", timeoutMs: "soon", maxRetries: "99" });
      assert.equal(bad.success, false);
      const fields = new Set(bad.error?.issues.map((i) => String(i.path[0])));
      for (const name of ["provider", "baseUrl", "model", "timeoutMs", "maxRetries"]) assert.ok(fields.has(name), name);
      assert.equal(
        LlmSettingsFormSchema.safeParse({ provider: "openai", baseUrl: "javascript:alert(1)", model: "m", timeoutMs: "5000", maxRetries: "0" }).success,
        false,
      );
      await clearLlmSettings(t.db);
      assert.equal(await getLlmSettingsView(t.db, ENV), undefined);
      assert.equal(await getEffectiveLlmConfig(t.db, ENV), undefined);
      assert.deepEqual(await testLlmConnection(t.db, ENV), { ok: false, message: "no LLM endpoint is configured" });
    });
  });
}
