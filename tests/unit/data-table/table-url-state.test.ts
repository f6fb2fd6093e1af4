import assert from "node:assert/strict";
import { test } from "node:test";
import { readTableState, writeTableState, type TableUrlOptions, type TableViewState } from "../../../components/data-table/table-url-state";

const OPTIONS: TableUrlOptions = {
  sortable: ["title", "uploadedAt", "startedAt", "messages"],
  filters: ["format", "model", "tools"],
  pageSizes: [25, 50, 100, 250],
  defaultSorting: [{ id: "uploadedAt", desc: true }],
  defaultPageSize: 50,
};
const DEFAULT: TableViewState = { sorting: [{ id: "uploadedAt", desc: true }], columnFilters: [], globalFilter: "", pageIndex: 0, pageSize: 50 };

test("an untouched table has a clean URL and reads back as the defaults", () => {
  const written = writeTableState(new URLSearchParams(), DEFAULT, OPTIONS);
  assert.equal(written.toString(), "");
  assert.deepEqual(readTableState(written, OPTIONS), DEFAULT);
});

test("sort, filters, search and page survive a round trip through the query string", () => {
  const view: TableViewState = {
    sorting: [
      { id: "startedAt", desc: true },
      { id: "title", desc: false },
    ],
    columnFilters: [
      { id: "format", value: "claude_code_jsonl" },
      { id: "tools", value: "bash" },
    ],
    globalFilter: "fix the flaky test & more",
    pageIndex: 2,
    pageSize: 100,
  };
  const written = writeTableState(new URLSearchParams("keep=me"), view, OPTIONS);
  assert.equal(written.get("sort"), "-startedAt,title");
  assert.equal(written.get("format"), "claude_code_jsonl");
  assert.equal(written.get("page"), "3");
  assert.equal(written.get("keep"), "me", "parameters the table does not own are kept");
  assert.deepEqual(readTableState(new URLSearchParams(written.toString()), OPTIONS), view);
});

test("an unsorted table says so (sort= with nothing), unlike the default sort", () => {
  const written = writeTableState(new URLSearchParams(), { ...DEFAULT, sorting: [] }, OPTIONS);
  assert.equal(written.toString(), "sort=");
  assert.deepEqual(readTableState(written, OPTIONS).sorting, []);
});

test("a hand-edited link falls back to defaults where it names nothing the table has", () => {
  const state = readTableState(new URLSearchParams("sort=-nope,messages,messages&page=zero&size=7&format=&color=red"), OPTIONS);
  assert.deepEqual(state, { ...DEFAULT, sorting: [{ id: "messages", desc: false }] });
});
