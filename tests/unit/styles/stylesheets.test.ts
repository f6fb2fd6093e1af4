import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { REPO, classNamesOf, filesUnder, moduleUsesOf, readRepoFile, type ModuleUse } from "./stylesheet-index";

/**
 * Issue 18 item 4: styles stay findable. No stylesheet under app/ or components/ grows past 300 lines
 * (split it by component, shared primitives go to components/ui/); every class a component reads
 * from a CSS module exists there (a typo renders unstyled, silently: CSS module types are `string`);
 * every class a module defines is read by some importer (dead rules are how 1,300-line files grow).
 */
const MAX_LINES = 300;

const cssFiles = filesUnder([".css"]);
const modules = cssFiles.filter((file) => file.endsWith(".module.css"));
const uses: ModuleUse[] = filesUnder([".ts", ".tsx"]).flatMap((file) => moduleUsesOf(readRepoFile(file), file));

/** Problems of the three kinds over a set of modules and their uses (the real tree, and the synthetic case below). */
function problemsOf(moduleSources: Map<string, string>, moduleUses: ModuleUse[]): string[] {
  const problems: string[] = [];
  const classes = new Map([...moduleSources].map(([file, css]) => [file, classNamesOf(css, file)]));
  const read = new Map<string, Set<string>>();
  for (const use of moduleUses) {
    const defined = classes.get(use.module);
    if (!defined) {
      problems.push(`${use.file} imports ${use.module}, which does not exist`);
      continue;
    }
    for (const line of use.dynamic) problems.push(`${use.file}:${line}: ${use.local}[…] with a computed key cannot be checked; read a named class`);
    for (const { name, line } of use.reads) {
      if (!defined.has(name)) problems.push(`${use.file}:${line}: ${use.local}.${name} is not a class of ${use.module}`);
      (read.get(use.module) ?? read.set(use.module, new Set()).get(use.module)!).add(name);
    }
  }
  for (const [module, defined] of classes) {
    const used = read.get(module);
    if (!used) {
      problems.push(`${module} is imported by no component`);
      continue;
    }
    const unused = [...defined].filter((name) => !used.has(name));
    if (unused.length > 0) problems.push(`${module} defines classes nobody reads: ${unused.map((n) => `.${n}`).join(", ")}`);
  }
  return problems;
}

test("the style roots hold stylesheets and CSS modules (the checks below have something to check)", () => {
  assert.ok(cssFiles.includes("app/globals.css"), "app/globals.css is missing");
  assert.ok(modules.length >= 10, `only ${modules.length} CSS modules found under app/ and components/`);
  assert.ok(uses.length >= 10, `only ${uses.length} CSS module imports found`);
});

test(`no stylesheet under app/ or components/ is longer than ${MAX_LINES} lines`, () => {
  const long = cssFiles
    .map((file) => ({
      file,
      lines: readRepoFile(file)
        .split("\n")
        .filter((line, i, all) => i < all.length - 1 || line !== "").length,
    }))
    .filter(({ lines }) => lines > MAX_LINES)
    .map(({ file, lines }) => `${file}: ${lines} lines`);
  assert.deepEqual(long, [], "split these by component; shared primitives belong in components/ui/");
});

test("every class read from a CSS module exists in it, and every class a module defines is read", () => {
  const sources = new Map(modules.map((file) => [file, readRepoFile(file)]));
  for (const use of uses) if (!sources.has(use.module) && existsSync(join(REPO, use.module))) sources.set(use.module, readRepoFile(use.module));
  assert.deepEqual(problemsOf(sources, uses), []);
});

test("the checks catch a missing class, an unused class, a computed key and an orphan module", () => {
  const css = new Map([
    [
      "components/x/a.module.css",
      ".row { color: red; }\n.row .cell:hover { color: blue; }\n:global(.btn) .dead { margin: 0; }\n@keyframes flash { from { opacity: 0; } }",
    ],
    ["components/x/orphan.module.css", ".alone { color: red; }"],
  ]);
  const source = [
    'import styles from "./a.module.css";',
    'import "./plain.css";',
    "export const A = () => <div className={styles.row}><span className={styles['cell']} /><i className={styles.missing} /><b className={styles[kind]} /></div>;",
  ].join("\n");
  const found = problemsOf(css, moduleUsesOf(source, "components/x/a.tsx"));
  assert.deepEqual(found.sort(), [
    "components/x/a.module.css defines classes nobody reads: .dead",
    "components/x/a.tsx:3: styles.missing is not a class of components/x/a.module.css",
    "components/x/a.tsx:3: styles[…] with a computed key cannot be checked; read a named class",
    "components/x/orphan.module.css is imported by no component",
  ]);
});

test("class names come from selectors only: not from :global(), comments, keyframe steps or declarations", () => {
  const names = classNamesOf(
    "/* .comment */\n.a:hover > .b[data-x='.y'] { background: url(x.png); }\n:global(.btn) { color: red; }\n@media (max-width: 9px) { .c { width: 1.5px; } }\n@keyframes k { 50% { opacity: 0.5; } }",
  );
  assert.deepEqual([...names].sort(), ["a", "b", "c"]);
});
