import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import postcss from "postcss";
import ts from "typescript";

/**
 * What the stylesheet test reads: every .css file under app/ and components/, and every TS/TSX file
 * there that imports a CSS module (`import styles from "./x.module.css"`) with the classes it reads
 * (`styles.name`, `styles["name"]`). Parsed with postcss and the TypeScript compiler, not regexes, so
 * comments, strings and `:global(...)` do not count as class names.
 */

export const REPO = resolve(__dirname, "../../..");
const ROOTS = ["app", "components"];

/** Files under the style roots whose name ends with one of `endings`, repo-relative, sorted. */
export function filesUnder(endings: string[], roots = ROOTS): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return walk(path);
      return endings.some((end) => name.endsWith(end)) ? [relative(REPO, path)] : [];
    });
  return roots.flatMap((root) => walk(join(REPO, root))).sort();
}

/** The local class names a CSS module defines (selectors inside `:global(...)` are not the module's). */
export function classNamesOf(css: string, from = "inline.css"): Set<string> {
  const names = new Set<string>();
  postcss.parse(css, { from }).walkRules((rule) => {
    // Keyframe steps (`from`, `50%`) are rules too but hold no classes; `:global(.x)` names a global
    // class; an attribute selector's value (`[data-x=".y"]`) is not a class either.
    const local = rule.selector.replace(/\[[^\]]*\]/g, "").replace(/:global\([^)]*\)/g, "");
    for (const match of local.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)) names.add(match[1]!);
  });
  return names;
}

export interface ModuleUse {
  /** The importing file, repo-relative. */
  file: string;
  /** The CSS module, repo-relative. */
  module: string;
  /** The import's local name (`styles`, `rowStyles`, …). */
  local: string;
  /** Every class read, with the 1-based line it is read on. */
  reads: { name: string; line: number }[];
  /** Lines that index the module with a computed key (`styles[kind]`): unverifiable, so refused. */
  dynamic: number[];
}

/** Resolves an import specifier the way tsconfig's paths do (`@/x` is the repo root), or null if not a CSS module. */
function resolveModule(specifier: string, file: string): string | null {
  if (!specifier.endsWith(".module.css")) return null;
  const absolute = specifier.startsWith("@/") ? join(REPO, specifier.slice(2)) : resolve(REPO, dirname(file), specifier);
  return relative(REPO, absolute);
}

/** The CSS modules one TS/TSX source imports and the classes it reads from each. */
export function moduleUsesOf(source: string, file: string): ModuleUse[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const byLocal = new Map<string, ModuleUse>();
  for (const statement of sf.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const module = resolveModule(statement.moduleSpecifier.text, file);
    const local = statement.importClause?.name?.text;
    if (module && local) byLocal.set(local, { file, module, local, reads: [], dynamic: [] });
  }
  const lineOf = (node: ts.Node) => sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression)) {
      byLocal.get(node.expression.text)?.reads.push({ name: node.name.text, line: lineOf(node) });
    } else if (ts.isElementAccessExpression(node) && ts.isIdentifier(node.expression)) {
      const use = byLocal.get(node.expression.text);
      if (use && ts.isStringLiteralLike(node.argumentExpression)) use.reads.push({ name: node.argumentExpression.text, line: lineOf(node) });
      else if (use) use.dynamic.push(lineOf(node));
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return [...byLocal.values()];
}

/** Reads a repo-relative file. */
export function readRepoFile(file: string): string {
  return readFileSync(join(REPO, file), "utf8");
}
