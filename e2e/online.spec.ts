import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { storageStateOf } from "./fixtures/accounts";
import { importForE2e } from "./fixtures/import-session";
import { writeLabelledUsage, writeUsageWeek } from "./fixtures/usage-log";

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
  expect(text.split("\n")[0]).toBe(
    "scope,hour,treatment_mean_input,control_mean_input,reduction_pct,ci95_low,ci95_high,treatment_calls,control_calls,treatment_accounts,control_accounts",
  );
  const pooled = text.split("\n").filter((l) => l.startsWith("pooled,"));
  expect(pooled.map((l) => l.split(",")[1])).toEqual(["10:00", "11:00", "12:00", "13:00", "14:00", "15:00", "16:00", "17:00"]);
});

test("a log with a group column opens split by it; a rule that empties a group says so; examples come from the log's own dates", async ({ page }) => {
  const log = writeLabelledUsage();
  await page.goto("/online");
  await page.getByLabel("CSV or JSONL usage log").setInputFiles(log.path);
  await expect(page.getByTestId("mapping-step").getByLabel(/^Group \(optional\)/)).toHaveValue("group");
  await page.getByRole("button", { name: /^Import usage-labelled\.csv/ }).click();
  await expect(page.getByRole("status")).toContainText(`Imported ${log.rows.toLocaleString("en-US")} calls`);
  await page.getByRole("status").getByRole("link", { name: "Open the report" }).click();
  await expect(page).toHaveURL(/\/online\/[\w-]+$/);

  // No rule in the URL: the log's own group column decides, and both groups hold accounts.
  await expect(page.getByLabel("Assignment rule")).toHaveValue("column");
  await expect(page.getByTestId("online-assignment")).toContainText('group column "group"');
  await expect(page.getByTestId("online-reduction")).toContainText(/Reduction -?\d+\.\d%/);
  await expect(page.getByText(/calls from 2025-03-03 \d\d:\d\d UTC to 2025-03-05 \d\d:\d\d UTC/)).toBeVisible();

  // Placeholders are instants inside this log, not the demo week.
  await expect(page.getByLabel("Rollout instant (before it: pre-period)")).toHaveAttribute("placeholder", /^2025-03-0[3-5]T\d\d:\d\d:00Z$/);
  await expect(page.getByLabel("Volatile windows (one START/END per line, excluded)")).toHaveAttribute(
    "placeholder",
    /^2025-03-0[3-5]T[\d:]+Z\/2025-03-0[3-5]T[\d:]+Z$/,
  );

  // Seed 000's e-mail pivot puts every one of these accounts in treatment: the page says so.
  await page.getByLabel("Assignment rule").selectOption("email-pivot");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/assign=email-pivot%3Ao/);
  const warning = page.getByTestId("online-group-warning");
  await expect(warning).toContainText(/The control group is empty: all [\d,]+ accounts \([\d,]+ calls\) fell in treatment/);
  await expect(warning).toContainText("column:group");
  await expect(page.getByTestId("online-reduction")).toHaveCount(0);
});

/** Two real traces that carry provider usage per call: a short Claude Code session and a mini-swe-agent run. */
const USAGE_TRACES = [
  resolve(
    "../shared/traces/claude_code_jsonl/d-kimuson__claude-code-viewer/mock-global-claude-dir/projects/sample-project/1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl",
  ),
  resolve(
    "../shared/traces/mini_swe_agent_traj/SWE-agent__mini-swe-agent/output/deepseek_reasoner_dev/pvlib__pvlib-python-1707/pvlib__pvlib-python-1707.traj.json",
  ),
];

test("a reviewer simulates a policy over uploaded traces and gets the CLI's numbers, then uses their provider usage as traffic", async ({ page }) => {
  const ids = USAGE_TRACES.flatMap((path) => importForE2e(path).map((s) => s.id));
  const cli = JSON.parse(
    execFileSync("npx", ["--no-install", "tsx", "cli/main.ts", "simulate", ...USAGE_TRACES, "--policy", "tool-prune", "--trigger", "80%", "--json"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    }),
  ) as { pooled: { sessions: number; calls: number; reductionPct: number; cacheBreaks: number; lostSteps: number; lostStepsPer100: number | null } };

  await page.goto("/online");
  const sim = page.getByRole("region", { name: "Simulate from traces" });
  await sim.getByLabel("Selected sessions").check();
  await sim.getByLabel(/^Sessions/).selectOption(ids);
  await sim.getByLabel("Policy").selectOption("tool-prune");
  await sim.getByLabel("Trigger (% of the window)").fill("80");
  await sim.getByRole("button", { name: "Run simulation" }).click();
  const result = sim.getByTestId("sim-result");
  await expect(result).toBeVisible();
  await expect(sim.getByTestId("sim-progress")).toHaveCount(0);
  await expect(result.getByTestId("sim-sessions")).toHaveText(String(cli.pooled.sessions));
  await expect(result.getByTestId("sim-calls")).toHaveText(cli.pooled.calls.toLocaleString("en-US"));
  await expect(result.getByTestId("sim-reduction")).toHaveText(`${cli.pooled.reductionPct.toFixed(2)}%`);
  await expect(result.getByTestId("sim-cache-breaks")).toContainText(String(cli.pooled.cacheBreaks));
  // Lost steps come from the rollout's judge, the same as the CLI's.
  await expect(result.getByTestId("sim-lost-steps")).toContainText(
    `${cli.pooled.lostStepsPer100 === null ? "—" : cli.pooled.lostStepsPer100.toFixed(2)} (${cli.pooled.lostSteps} step`,
  );
  await expect(result.getByTestId("sim-chart").locator(".recharts-line")).toHaveCount(2);
  await expect(result.getByRole("table", { name: "Simulated sessions" }).getByRole("row")).toHaveCount(3);
  await result.getByLabel("Curve shown").selectOption({ index: 1 });
  await expect(result.getByTestId("sim-chart")).toContainText("Prompt tokens per call, session");

  // Asking for a selection of nothing is refused with a message, not a crash.
  await sim.getByLabel(/^Sessions/).selectOption([]);
  await sim.getByRole("button", { name: "Run simulation" }).click();
  await expect(sim.getByRole("alert")).toHaveText("Pick at least one session.");

  // The traces' own provider usage as a usage log, opened like an uploaded one.
  const traffic = page.getByRole("region", { name: "Use usage from uploaded traces" });
  await traffic.getByLabel("Account of each call").selectOption("session");
  await traffic.getByRole("button", { name: "Build usage log" }).click();
  await expect(traffic.getByRole("status")).toContainText(/Built a usage log of [\d,]+ calls|These traces already gave a usage log/);
  await traffic.getByRole("link", { name: "Open the report" }).click();
  await expect(page).toHaveURL(/\/online\/[\w-]+$/);
  await expect(page.getByText(/usage-from-traces-session-\d+-calls\.csv/).first()).toBeVisible();
});

test.describe("as a viewer", () => {
  test.use({ storageState: storageStateOf("viewer") });

  test("a viewer reads the online page but cannot upload", async ({ page }) => {
    await page.goto("/online");
    await expect(page.getByRole("heading", { name: "Online A/B" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Upload a usage log" })).toHaveCount(0);
    await expect(page.getByRole("region", { name: "Simulate from traces" })).toHaveCount(0);
    await expect(page.getByRole("region", { name: "Use usage from uploaded traces" })).toHaveCount(0);
    const simulate = await page.evaluate(
      async () =>
        (
          await fetch("/api/online/simulate", {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify({ selection: { kind: "all" }, policy: "none" }),
          })
        ).status,
    );
    expect(simulate).toBe(403);
    const status = await page.evaluate(
      async () => (await fetch("/api/online/uploads?name=x.csv", { method: "PUT", body: "timestamp,account,inputTokens\n" })).status,
    );
    expect(status).toBe(403);
  });
});
