import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const ROOT = resolve(__dirname, "../../..");

/** Every line of the studio's UI sources (components/ and app/), for checks that a helper is used everywhere. */
export function studioSourceLines(options: { skip?: readonly string[] } = {}): { file: string; line: number; text: string }[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : /\.tsx?$/.test(name) ? [path] : [];
    });
  return ["components", "app"]
    .flatMap((dir) => walk(join(ROOT, dir)))
    .map((path) => relative(ROOT, path))
    .filter((file) => !(options.skip ?? []).some((prefix) => file.startsWith(prefix)))
    .flatMap((file) =>
      readFileSync(join(ROOT, file), "utf8")
        .split("\n")
        .map((text, i) => ({ file, line: i + 1, text })),
    );
}
