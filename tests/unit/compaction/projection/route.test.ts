import assert from "node:assert/strict";
import { test } from "node:test";
import { callRoute, semanticRoute } from "../../../../lib/compaction/projection/route";
import { body, fixture } from "../planner/fixtures";

const f = fixture([
  ["user", "Compare the vendor pages and fix the parser."],
  ["call", "WebFetch", { url: "https://docs.example.com/pricing", prompt: "extract the price table" }, `see https://docs.example.com/terms\n${body("page")}`],
  ["call", "Read", { file_path: "/srv/app/parser.py" }, body("parser")],
  ["assistant", "Done."],
  ["user", "Thanks."],
]);

test("a tool result's route names the tool, its argument leaves and the locators its output introduced", () => {
  const fetch = f.index.byId.get("function:web_fetch:1")!;
  const route = semanticRoute(f.session, f.index, fetch);
  assert.match(route, /^WebFetch\(https:\/\/docs\.example\.com\/pricing, extract the price table\)/);
  assert.match(route, /mentions .*https:\/\/docs\.example\.com\/terms/);
});

test("a whole-turn route quotes the request and names the subject of every tool call inside the turn", () => {
  const turn = f.index.byId.get("conversation:user:1")!;
  const route = semanticRoute(f.session, f.index, turn);
  assert.match(route, /^user request: Compare the vendor pages/);
  assert.match(route, /WebFetch\(https:\/\/docs\.example\.com\/pricing\)/);
  assert.match(route, /Read\(\/srv\/app\/parser\.py\)/);
});

test("long argument leaves are shortened and the route is capped", () => {
  const g = fixture([
    ["user", "x"],
    ["call", "Bash", { command: `echo ${"a".repeat(500)}` }, "ok"],
    ["user", "y"],
  ]);
  const object = g.index.byId.get("function:exec:1")!;
  assert.ok(callRoute(g.session, object).length < 120);
  assert.ok(semanticRoute(g.session, g.index, object, { maxChars: 50 }).length <= 51);
});

test("a whole-turn route names a call's leading arguments up to the first distinctive one", () => {
  const g = fixture([
    ["user", "Find a nonstop flight."],
    ["call", "search_direct_flight", { origin: "IAH", destination: "SFO", date: "2024-05-19" }, "[]"],
    ["user", "Thanks."],
  ]);
  const route = semanticRoute(g.session, g.index, g.index.byId.get("conversation:user:1")!);
  assert.match(route, /search_direct_flight\(IAH, SFO, 2024-05-19\)/);
});
