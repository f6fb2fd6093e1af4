import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Part, Session } from "../../../lib/trace/model";
import {
  FAILURE_CATEGORIES,
  FAILURE_CATEGORY_IDS,
  generateScenario,
  generateSuite,
  partText,
  ScenarioOptionError,
  SCENARIO_MODEL,
  sessionChars,
  WORKLOAD_IDS,
  type PartRef,
  type PlantedDependency,
  type Scenario,
} from "../../../lib/scenario";

function partAt(session: Session, ref: PartRef): Part {
  const part = session.messages[ref.message]?.parts[ref.part];
  assert.ok(part, `no part at message ${ref.message} part ${ref.part}`);
  return part;
}

/** Every part strictly between plantedAt and usedAt (in message, part order) containing the anchor. */
function occurrencesBetween(session: Session, dep: PlantedDependency): PartRef[] {
  const found: PartRef[] = [];
  for (let m = dep.plantedAt.message; m <= dep.usedAt.message; m += 1) {
    session.messages[m]?.parts.forEach((part, p) => {
      const afterPlant = m > dep.plantedAt.message || p > dep.plantedAt.part;
      const beforeUse = m < dep.usedAt.message || p < dep.usedAt.part;
      if (afterPlant && beforeUse && partText(part).includes(dep.anchor)) found.push({ message: m, part: p });
    });
  }
  return found;
}

const key = (ref: PartRef): string => `${ref.message}:${ref.part}`;

/** The ground-truth contract a judge relies on, checked exhaustively for one scenario. */
function assertGroundTruth({ session, groundTruth }: Scenario): void {
  const anchors = groundTruth.map((dep) => dep.anchor);
  assert.equal(new Set(anchors).size, anchors.length, "anchors are unique within a session");
  for (const dep of groundTruth) {
    const where = `${session.id} ${dep.id}`;
    assert.ok(partText(partAt(session, dep.plantedAt)).includes(dep.anchor), `${where}: anchor at plantedAt`);
    assert.ok(partText(partAt(session, dep.usedAt)).includes(dep.anchor), `${where}: anchor at usedAt`);
    assert.ok(dep.usedAt.message > dep.plantedAt.message, `${where}: used after planted`);
    assert.equal(session.messages[dep.usedAt.message]?.role, "assistant", `${where}: used by an assistant step`);
    assert.ok(["user", "tool"].includes(session.messages[dep.plantedAt.message]?.role ?? ""), `${where}: planted by user or tool`);
    assert.ok(!/["\\\n]/.test(dep.anchor), `${where}: anchor survives JSON arguments unescaped`);
    const listed = new Set(dep.alsoAt.map(key));
    for (const ref of dep.alsoAt) assert.ok(partText(partAt(session, ref)).includes(dep.anchor), `${where}: anchor at alsoAt ${key(ref)}`);
    assert.deepEqual(occurrencesBetween(session, dep).map(key).sort(), [...listed].sort(), `${where}: unlisted occurrences between plant and use`);
  }
}

function assertCallsLinked(session: Session): void {
  const calls = new Set<string>();
  for (const message of session.messages) {
    for (const part of message.parts) {
      if (part.type === "tool_call") calls.add(part.id);
      if (part.type === "tool_result") {
        assert.ok(calls.has(part.callId), `${session.id} message ${message.index}: result ${part.callId} has no earlier call`);
        assert.notEqual(part.orphan, true);
      }
    }
  }
}

describe("generateScenario", () => {
  test("same options give deep-equal scenarios", () => {
    for (const workload of WORKLOAD_IDS) {
      const options = { workload, seed: 1234, turns: 10, targetTokens: 40_000 };
      assert.deepEqual(generateScenario(options), generateScenario(options));
    }
  });

  test("different seeds give different anchors", () => {
    for (const workload of WORKLOAD_IDS) {
      const a = new Set(generateScenario({ workload, seed: 1 }).groundTruth.map((d) => d.anchor));
      const b = generateScenario({ workload, seed: 2 }).groundTruth.map((d) => d.anchor);
      assert.ok(
        b.every((anchor) => !a.has(anchor)),
        `${workload}: seeds 1 and 2 share an anchor`,
      );
    }
  });

  test("every workload plants all six failure categories", () => {
    for (const workload of WORKLOAD_IDS) {
      const categories = new Set(generateScenario({ workload, seed: 7 }).groundTruth.map((d) => d.category));
      assert.deepEqual([...categories].sort(), [...FAILURE_CATEGORY_IDS].sort(), workload);
    }
  });

  test("planted anchors occur at plantedAt, usedAt and only listed parts between (many seeds and sizes)", () => {
    for (const workload of WORKLOAD_IDS) {
      for (let seed = 0; seed < 12; seed += 1) {
        assertGroundTruth(generateScenario({ workload, seed, turns: 8 + (seed % 5), toolCallsPerTurn: seed % 4, targetTokens: seed * 4_000 }));
      }
    }
  });

  test("every tool_result answers an earlier tool_call", () => {
    for (const workload of WORKLOAD_IDS) assertCallsLinked(generateScenario({ workload, seed: 99, targetTokens: 60_000 }).session);
  });

  test("targetTokens is reached within ±20%", () => {
    for (const workload of WORKLOAD_IDS) {
      for (const targetTokens of [60_000, 150_000, 500_000]) {
        const tokens = sessionChars(generateScenario({ workload, seed: 5, targetTokens }).session) / 4;
        assert.ok(Math.abs(tokens - targetTokens) <= targetTokens * 0.2, `${workload} ${targetTokens}: got ${Math.round(tokens)}`);
      }
    }
  });

  test("turns and toolCallsPerTurn shape the session", () => {
    for (const workload of WORKLOAD_IDS) {
      const { session } = generateScenario({ workload, seed: 3, turns: 15, toolCallsPerTurn: 5 });
      const userIndexes = session.messages.filter((m) => m.role === "user").map((m) => m.index);
      assert.equal(userIndexes.length, 15);
      userIndexes.forEach((start, t) => {
        const end = userIndexes[t + 1] ?? session.messages.length;
        const calls = session.messages
          .slice(start, end)
          .flatMap((m) => m.parts)
          .filter((p) => p.type === "tool_call").length;
        assert.ok(calls >= 5, `${workload} turn ${t}: ${calls} tool calls`);
      });
      const few = generateScenario({ workload, seed: 3, turns: 1 }).session.messages.filter((m) => m.role === "user").length;
      assert.ok(few > 1, "turns below the script's own count are raised to it");
    }
  });

  test("session metadata: id, format, title, model, timestamps, growing usage", () => {
    const { session } = generateScenario({ workload: "scheduled-task-debug", seed: 11 });
    assert.equal(session.id, "scenario-scheduled-task-debug-11");
    assert.equal(session.format, "tracefold_jsonl");
    assert.match(session.title, /^Trace why the scheduled task nightly-/);
    assert.deepEqual(session.models, [SCENARIO_MODEL]);
    assert.equal(session.messages[0]?.role, "system");
    session.messages.forEach((m, i) => assert.equal(m.index, i));
    const times = session.messages.map((m) => Date.parse(m.timestamp ?? ""));
    assert.ok(
      times.every((t, i) => Number.isFinite(t) && (i === 0 || t >= (times[i - 1] ?? 0))),
      "timestamps advance",
    );
    const inputs = session.messages.filter((m) => m.role === "assistant").map((m) => m.usage?.inputTokens ?? -1);
    assert.ok(
      inputs.every((n, i) => n > 0 && (i === 0 || n > (inputs[i - 1] ?? 0))),
      "inputTokens grow with the prefix",
    );
  });

  test("rejects bad options with a field name", () => {
    assert.throws(
      () => generateScenario({ workload: "vendor-comparison", seed: -1 }),
      (e: unknown) => e instanceof ScenarioOptionError && e.field === "seed",
    );
    assert.throws(() => generateScenario({ workload: "nope" as "vendor-comparison", seed: 1 }), ScenarioOptionError);
    assert.throws(() => generateScenario({ workload: "spreadsheet-repair", seed: 1, turns: 2.5 }), ScenarioOptionError);
  });

  test("a 5 MB session generates (timing reported, not asserted)", (t) => {
    for (const workload of WORKLOAD_IDS) {
      const start = performance.now();
      const { session, groundTruth } = generateScenario({ workload, seed: 2024, targetTokens: 1_250_000 });
      const ms = performance.now() - start;
      const mb = sessionChars(session) / 1e6;
      t.diagnostic(`${workload}: ${mb.toFixed(1)} MB, ${session.messages.length} messages in ${ms.toFixed(0)} ms (${(mb / (ms / 1000)).toFixed(1)} MB/s)`);
      assert.ok(mb >= 4);
      assertCallsLinked(session);
      assertGroundTruth({ session, groundTruth });
    }
  });
});

describe("generateSuite", () => {
  test("rotates workloads, derives distinct seeds and is reproducible", () => {
    const suite = generateSuite({ seed: 5, sessions: 7 });
    assert.deepEqual(
      suite.map((s) => s.session.meta?.workload),
      [...WORKLOAD_IDS, ...WORKLOAD_IDS, WORKLOAD_IDS[0]],
    );
    assert.equal(new Set(suite.map((s) => s.session.id)).size, 7);
    assert.deepEqual(generateSuite({ seed: 5, sessions: 7 }), suite);
    const only = generateSuite({ seed: 5, sessions: 2, workloads: ["spreadsheet-repair"] });
    assert.ok(only.every((s) => s.session.id.startsWith("scenario-spreadsheet-repair-")));
  });
});

test("FAILURE_CATEGORIES lists the six Table 7 categories with labels and descriptions", () => {
  assert.deepEqual(FAILURE_CATEGORY_IDS, ["evidence_detail", "locator_handle", "behavioral_contract", "verbatim_source", "live_state", "recovery_routing"]);
  for (const category of FAILURE_CATEGORIES) assert.ok(category.label.length > 0 && category.description.length > 20);
});
