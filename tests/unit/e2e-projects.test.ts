// An end-to-end test that uses no browser (no page, browser or context) ends its title with @no-browser, so it
// runs once in its own project instead of once with JavaScript and once without (playwright.config.ts); a tagged
// test uses no browser, since that project has none.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, test } from "vitest";

const E2E = resolve(__dirname, "../e2e");
const BROWSER_FIXTURES = new Set(["page", "browser", "context"]);

interface E2eTest {
  where: string;
  usesBrowser: boolean;
  tagged: boolean;
}

/** Every test(...) of a spec file: the fixtures its callback asks for and whether its title is tagged @no-browser. */
function testsOf(file: string): E2eTest[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: E2eTest[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "test") {
      const callback = node.arguments.at(-1);
      if (callback && (ts.isArrowFunction(callback) || ts.isFunctionExpression(callback))) {
        const first = callback.parameters[0]?.name;
        const fixtures =
          first && ts.isObjectBindingPattern(first) ? first.elements.map((element) => element.name.getText(source)) : [];
        const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
        found.push({
          where: `${file.slice(E2E.length + 1)}:${line + 1}`,
          usesBrowser: fixtures.some((name) => BROWSER_FIXTURES.has(name)),
          tagged: /@no-browser\b/.test(node.arguments[0]?.getText(source) ?? ""),
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const specs = readdirSync(E2E)
  .filter((name) => name.endsWith(".spec.ts"))
  .map((name) => join(E2E, name));
const all = specs.flatMap(testsOf);

describe("end-to-end projects", () => {
  test("the spec files are read: tests with and without a browser are found", () => {
    expect(all.filter((t) => t.usesBrowser).length).toBeGreaterThan(50);
    expect(all.filter((t) => !t.usesBrowser).length).toBeGreaterThan(0);
  });

  test("a test without a browser is tagged @no-browser, and a tagged test uses no browser", () => {
    expect(all.filter((t) => t.usesBrowser === t.tagged).map((t) => t.where)).toEqual([]);
  });
});
