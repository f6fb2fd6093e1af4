import { expect, test, type Page } from "@playwright/test";
import { storageStateOf } from "./fixtures/accounts";
import { COMPACTED_TRANSCRIPT, importForE2e } from "./fixtures/import-session";

/**
 * Issue #5, "tried as a new user would": a long real Claude Code session (344 messages, a native
 * compaction) is evaluated with the dense cut levels (every 10%: ten replay cuts of it, where the
 * default 50/70/90 gives four), an admin builds a dependency queue from the run, a reviewer labels
 * ten cuts of that session with the keyboard, and the evaluation page shows how the dependency
 * judge agrees with those labels. Expected figures are computed here from the judge's stored
 * per-cut verdicts (the run's API) and the labels this test gave, never copied from the page.
 * Other Claude Code sessions other specs imported into the e2e database may be in the suite too;
 * their items are skipped (j), so exactly the ten cuts of the real session are labeled.
 */
const POLICIES = ["none", "tool-prune", "oldest-turn"];
const CUTS = 10;
const DENSE_LEVELS = "10,20,30,40,50,60,70,80,90";
const NAME = `e2e human labels ${Date.now()}`;
const QUEUE_NAME = `${NAME} dependency`;

let sessionTitle: string;
test.beforeAll(() => {
  sessionTitle = importForE2e(COMPACTED_TRANSCRIPT)[0]!.title;
});

/** `<session title> · cut <n>` (the labeling screen's item title) → policy → the judge's no-impact verdict. */
async function judgeVerdicts(page: Page, runId: string): Promise<Map<string, Map<string, boolean>>> {
  const out = new Map<string, Map<string, boolean>>();
  for (const policy of POLICIES) {
    const body = (await (await page.request.get(`/api/evaluations/${runId}/cuts?policy=${policy}`)).json()) as {
      data: { sessionTitle: string; cut: number; noImpact: boolean; error: string | null }[];
    };
    for (const c of body.data)
      if (!c.error)
        (out.get(`${c.sessionTitle} · cut ${c.cut}`) ?? out.set(`${c.sessionTitle} · cut ${c.cut}`, new Map()).get(`${c.sessionTitle} · cut ${c.cut}`)!).set(
          policy,
          c.noImpact,
        );
  }
  return out;
}

/** What the page must show for these labels: people's verdict is the judge's on confirmed cuts, no-impact everywhere on a cut whose candidates were all rejected. */
function expectedFigures(judge: Map<string, Map<string, boolean>>, labeled: { title: string; rejectedAll: boolean }[]) {
  const m = [
    [0, 0],
    [0, 0],
  ];
  const rates = new Map(POLICIES.map((p) => [p, { people: 0, judge: 0 }]));
  for (const { title, rejectedAll } of labeled) {
    for (const [policy, judgeNoImpact] of judge.get(title)!) {
      const people = rejectedAll || judgeNoImpact;
      m[people ? 0 : 1]![judgeNoImpact ? 0 : 1]!++;
      rates.get(policy)!.people += Number(people);
      rates.get(policy)!.judge += Number(judgeNoImpact);
    }
  }
  const n = m[0]![0]! + m[0]![1]! + m[1]![0]! + m[1]![1]!;
  const agree = m[0]![0]! + m[1]![1]!;
  const pe = ((m[0]![0]! + m[0]![1]!) * (m[0]![0]! + m[1]![0]!) + (m[1]![0]! + m[1]![1]!) * (m[0]![1]! + m[1]![1]!)) / (n * n);
  const kappa = pe === 1 ? "undefined" : ((agree / n - pe) / (1 - pe)).toFixed(2);
  return { matrix: m, n, agree, kappa, accuracy: `${((agree / n) * 100).toFixed(1)}%`, rates };
}

async function expectFigures(page: Page, figures: ReturnType<typeof expectedFigures>, labeledCuts: number): Promise<void> {
  const block = page.getByRole("group", { name: `Human labels of ${QUEUE_NAME}` });
  await expect(block.getByTestId("labeled-cuts")).toHaveText(String(labeledCuts));
  const judge = block.getByTestId("human-judge-dependency");
  await expect(judge.getByTestId("judge-units")).toHaveText(String(figures.n));
  const labels = ["no-impact", "impacted"];
  for (const [i, people] of labels.entries())
    for (const [k, byJudge] of labels.entries()) await expect(judge.getByTestId(`matrix-${people}-${byJudge}`)).toHaveText(String(figures.matrix[i]![k]));
  await expect(judge.getByTestId("judge-accuracy")).toContainText(`${figures.accuracy} [`);
  await expect(judge.getByTestId("judge-accuracy")).toContainText(`${figures.agree} of ${figures.n}`);
  await expect(judge.getByTestId("judge-kappa")).toContainText(figures.kappa);
  for (const [policy, { people, judge: byJudge }] of figures.rates) {
    const cells = block.getByTestId(`human-rate-${policy}`).getByRole("cell");
    await expect(cells.nth(1)).toContainText(`${byJudge} / ${labeledCuts}`);
    await expect(cells.nth(2)).toContainText(`${people} / ${labeledCuts}`);
  }
}

/** Decides every judge candidate of the open item with one key (y or n), then submits it with Enter. */
async function labelOpenItem(page: Page, key: "y" | "n"): Promise<void> {
  const candidates = page.getByRole("option");
  const count = await candidates.count();
  for (let i = 0; i < count; i++) {
    await expect(candidates.nth(i)).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press(key);
    await expect(candidates.nth(i)).toHaveAttribute("data-decision", key === "y" ? "confirm" : "reject");
  }
  const mine = Number(await page.getByTestId("my-count").textContent());
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("my-count")).toHaveText(String(mine + 1));
}

test("a reviewer labels the cuts of a real Claude Code session; the evaluation page shows the dependency judge against those labels", async ({ browser }) => {
  test.setTimeout(600_000);
  const reviewer = await browser.newPage({ storageState: storageStateOf("reviewer") });
  // Start an evaluation of the Claude Code sessions with three policies and wait for it to finish.
  await reviewer.goto("/evaluations");
  const form = reviewer.getByRole("region", { name: "New evaluation" });
  await form.getByLabel("Name (optional)").fill(NAME);
  await form.getByLabel("Suite format").selectOption("claude_code_jsonl");
  for (const id of POLICIES) await form.getByRole("checkbox", { name: id, exact: true }).check();
  // The default protocol gives four cuts of the session; the dense preset cuts at every 10%.
  const levels = form.getByLabel("Cut levels (% of each session's tokens)");
  await expect(levels).toHaveValue("50,70,90");
  await levels.fill("70,50");
  await form.getByRole("button", { name: "Start evaluation" }).click();
  await expect(form.getByText("level 2: cut levels must be strictly increasing: 50 follows 70")).toBeVisible();
  await form.getByRole("button", { name: "dense: every 10%" }).click();
  await expect(levels).toHaveValue(DENSE_LEVELS);
  await form.getByRole("button", { name: "Start evaluation" }).click();
  await expect(reviewer).toHaveURL(/\/evaluations\/[a-z0-9]+$/);
  await expect(reviewer.getByTestId("run-cut-levels")).toHaveText("10, 20, 30, 40, 50, 60, 70, 80, 90%");
  await expect(reviewer.getByTestId("run-status").first()).toHaveText("done", { timeout: 120_000 });
  const runId = reviewer.url().split("/").pop()!;
  const runUrl = reviewer.url();
  // Nothing labeled yet: a reviewer is told an admin creates the queue.
  await expect(reviewer.getByTestId("human-labels-empty")).toContainText("An admin creates the queue");

  // The admin follows the empty state's link: the review page with this run preselected.
  const admin = await browser.newPage({ storageState: storageStateOf("admin") });
  await admin.goto(runUrl);
  await admin.getByRole("link", { name: "Create a dependency review queue from this run" }).click();
  await expect(admin.getByLabel("Evaluation run")).toHaveValue(runId);
  await admin.getByLabel("Kind").selectOption("dependency");
  await admin.getByLabel("Name (optional)").fill(QUEUE_NAME);
  await admin.getByRole("button", { name: "Create queue" }).click();
  await expect(admin.getByRole("heading", { level: 1, name: QUEUE_NAME })).toBeVisible();
  await expect(admin.getByTestId("item-title")).toBeVisible(); // the admin can label too: an item is open for them
  // Back to the run (leaving the screen gives the open item back): the queue is listed, nothing labeled.
  await admin.getByRole("link", { name: NAME, exact: true }).click();
  await expect(admin.getByTestId("human-labels-none")).toContainText("No cut of this queue is labeled yet");
  await admin.close();

  // The reviewer opens the queue from the evaluation page and labels with the keyboard.
  await reviewer.reload();
  await reviewer.getByRole("link", { name: "Open the queue" }).click();
  await expect(reviewer.getByRole("heading", { level: 1, name: QUEUE_NAME })).toBeVisible();
  const judge = await judgeVerdicts(reviewer, runId);
  const ours = (title: string) => title.startsWith(`${sessionTitle} · cut `);
  const sessionCuts = [...judge.keys()].filter(ours);
  expect(sessionCuts.length, "the dense levels give ten judged cuts of the session").toBe(CUTS);
  const labeled: { title: string; rejectedAll: boolean }[] = [];
  const isImpacted = (title: string) => [...judge.get(title)!.values()].some((noImpact) => !noImpact);
  expect(sessionCuts.some(isImpacted), "the judge finds losses at some cut of the session").toBe(true);
  // All ten cuts but one: confirm each judge candidate (y), submit (Enter). Items of other sessions
  // are passed with j (next item). The first impacted cut met is kept for later with j too, so the
  // last cut labeled is one where the judge found losses.
  let kept: string | null = null;
  while (labeled.length < CUTS - 1) {
    const title = (await reviewer.getByTestId("item-title").textContent())!;
    expect(judge.has(title), `${title} is a judged cut`).toBe(true);
    if (!ours(title)) {
      await reviewer.keyboard.press("j");
    } else if (!kept && isImpacted(title)) {
      kept = title;
      await reviewer.keyboard.press("j");
    } else {
      await labelOpenItem(reviewer, "y");
      labeled.push({ title, rejectedAll: false });
    }
    await expect(reviewer.getByTestId("item-title")).not.toHaveText(title);
  }
  // The evaluation page: people who confirmed everything agree with the judge on every verdict.
  await reviewer.getByRole("link", { name: NAME, exact: true }).click();
  const agreed = expectedFigures(judge, labeled);
  expect(agreed.agree).toBe(agreed.n);
  await expectFigures(reviewer, agreed, labeled.length);
  await expect(reviewer.getByTestId("judge-accuracy")).toContainText("100.0% [");

  // Back in the queue, the kept cut (impacted under some policy) is the session's one open cut: the
  // reviewer passes other sessions' items with j until it shows, then rejects every candidate.
  await reviewer.getByRole("link", { name: QUEUE_NAME, exact: true }).click();
  await expect(reviewer.getByTestId("item-title")).toBeVisible();
  let title = (await reviewer.getByTestId("item-title").textContent())!;
  for (let passed = 0; !ours(title) && passed < judge.size; passed++) {
    await reviewer.keyboard.press("j");
    await expect(reviewer.getByTestId("item-title")).not.toHaveText(title);
    title = (await reviewer.getByTestId("item-title").textContent())!;
  }
  if (kept) expect(title).toBe(kept); // else the one cut not yet visited, impacted since some cut of the session is
  expect(isImpacted(title), `${title} is impacted under some policy`).toBe(true);
  await labelOpenItem(reviewer, "n");
  labeled.push({ title, rejectedAll: true });
  expect(labeled.length).toBe(CUTS);
  expect(new Set(labeled.map((l) => l.title)).size, "ten different cuts of the session").toBe(CUTS);
  if (judge.size === CUTS) await expect(reviewer.getByTestId("queue-done")).toBeVisible();

  // The evaluation page now shows the disagreement: people found no-impact where the judge found losses.
  await reviewer.getByRole("link", { name: NAME, exact: true }).click();
  const split = expectedFigures(judge, labeled);
  expect(split.matrix[0]![1], "people no-impact, judge impacted").toBeGreaterThan(0);
  await expectFigures(reviewer, split, labeled.length);
  console.log(
    `human labels: ${labeled.length} cuts, ${split.n} verdicts, matrix ${JSON.stringify(split.matrix)}, accuracy ${split.accuracy}, κ ${split.kappa}`,
  );
  await reviewer.close();
});
