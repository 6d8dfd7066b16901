// The layers keep to their imports: domain/ imports only domain/; components/ never reach
// services/, routes/ or server-only utils; services/ never reach routes/ or components/ and never
// build an HTTP answer (Response, toast, conform reply). See docs/architecture.md.
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, test } from "vitest";
import { sourceFiles } from "./source-files";
import { commentsOf, externalReferenceCounts, loadAllowList, EXTERNAL_REFERENCE_PATTERNS } from "./comment-references";

const ROOT = resolve(__dirname, "../..");
const APP = join(ROOT, "app");

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|(?:^|\n)\s*import\s+["']([^"']+)["']/g;

/** Our own modules a file imports, as paths relative to the project root (packages left out). */
export function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const found: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (!spec) continue;
    let target: string | null = null;
    if (spec.startsWith("~/")) target = join(APP, spec.slice(2));
    else if (spec.startsWith(".")) target = resolve(dirname(file), spec);
    if (target) found.push(relative(ROOT, target));
  }
  return found;
}

/** app/root.tsx is a route (the root route): it belongs to the routes layer, so components may not import it. */
const layer = (path: string) => (/^app\/root(\.tsx?)?$/.test(path) ? "app/routes" : path.split("/").slice(0, 2).join("/"));
const rel = (file: string) => relative(ROOT, file);

function violations(): string[] {
  const out: string[] = [];
  for (const file of sourceFiles(APP)) {
    const from = rel(file);
    const fromLayer = layer(from);
    for (const to of importsOf(file)) {
      const toLayer = layer(to);
      if (fromLayer === "app/domain" && toLayer !== "app/domain") out.push(`${from} -> ${to}: domain imports only domain`);
      if (fromLayer === "app/components") {
        if (toLayer === "app/services" || toLayer === "app/routes")
          out.push(`${from} -> ${to}: components never import ${toLayer}`);
        if (toLayer === "app/utils" && /\.server(\.tsx?)?$/.test(to))
          out.push(`${from} -> ${to}: components never import server utils`);
        if (to.startsWith("db/")) out.push(`${from} -> ${to}: components never import the database schema`);
      }
      if (fromLayer === "app/services" && (toLayer === "app/routes" || toLayer === "app/components")) {
        out.push(`${from} -> ${to}: services never import ${toLayer}`);
      }
    }
    if (fromLayer === "app/services") {
      const text = readFileSync(file, "utf8");
      if (/\bnew Response\(|\bResponse\.json\(|\bredirect(WithToast)?\(|\bdata\(\{|createToastHeader|\.reply\(/.test(text)) {
        out.push(`${from}: services never build a Response, toast or form reply`);
      }
      if (/from\s+["']~\/utils\/toast\.server["']|from\s+["']@conform-to\//.test(text))
        out.push(`${from}: services never import toasts or conform`);
    }
  }
  return out;
}

// Known breaches still being moved; this list only ever shrinks, and is empty when the layering is done.
const KNOWN: string[] = [];

describe("architecture", () => {
  test("the import graph keeps to the layers", () => {
    const found = violations().filter((v) => !KNOWN.includes(v));
    expect(found).toEqual([]);
  });

  test("the known list holds no breach that is already gone", () => {
    const now = new Set(violations());
    expect(KNOWN.filter((v) => !now.has(v))).toEqual([]);
  });

  test("the checker sees imports (it can fail)", () => {
    const self = importsOf(join(APP, "utils/app-error.server.ts"));
    expect(self).toContain("app/domain/app-error");
  });

  test("app/root.tsx counts as a route: a component importing it is a breach", () => {
    expect(layer("app/root")).toBe("app/routes");
    expect(layer("app/root.tsx")).toBe("app/routes");
    expect(layer("app/routes.ts")).toBe("app/routes.ts");
  });
});

describe("comments", () => {
  // Comments state the rule or point at docs/decisions; none points at documents outside the repository.
  test("no comment points at documents outside the repository beyond the allow-list", () => {
    const allowed = loadAllowList();
    const over = [...externalReferenceCounts(ROOT)]
      .filter(([file, count]) => count > (allowed.get(file) ?? 0))
      .map(([file, count]) => `${file}: ${count} comment(s) pointing outside the repository (allowed ${allowed.get(file) ?? 0})`);
    expect(over).toEqual([]);
  });

  test("the scanner reads comments, not strings, and knows the patterns", () => {
    const sample = [
      'const a = "document 001 § 3"; // see document 000 section 5',
      "const b = /\\/\\/[\"']/; /* DECISIONS section 4 */ const c = `../shared ${1}`;",
      "{/* ../shared/STYLE.md */}",
    ].join("\n");
    const comments = commentsOf(sample);
    expect(comments).toEqual([" see document 000 section 5", " DECISIONS section 4 ", " ../shared/STYLE.md "]);
    const hits = comments.filter((c) => EXTERNAL_REFERENCE_PATTERNS.some((p) => p.test(c)));
    expect(hits).toHaveLength(3);
    expect(EXTERNAL_REFERENCE_PATTERNS.some((p) => p.test("docs/decisions/017-hardening.md"))).toBe(false);
  });
});
