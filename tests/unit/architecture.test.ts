// The layers keep to their imports: domain/ imports only domain/; components/ never reach
// services/, routes/ or server-only utils; utils/ (plumbing) never reach services/, routes/ or
// components/; services/ never reach routes/ or components/, never build an HTTP answer (Response,
// toast, conform reply) and never take a Request; only the payment factory knows the providers'
// classes; routes and components show field errors only through the form kit, read pending state
// only through useIsPending, and throw no hand-built Response; no module grows past MAX_MODULE_LINES.
// See docs/architecture.md.
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

const PAYMENT_FACTORY = "app/services/payments/provider.server.ts";
const PAYMENT_PROVIDER_CLASSES = ["app/services/payments/stripe-provider.server", "app/services/payments/test-provider.server"];

/** The code of a module with its comments left out. */
function codeOf(text: string): string {
  let code = text;
  for (const comment of commentsOf(text)) if (comment) code = code.replace(comment, "");
  return code;
}

/** Whether code (comments left out) uses the Request type or Remix's loader/action arguments. */
export function takesRequest(text: string): boolean {
  const code = codeOf(text);
  return (
    /(?:[:|<(,]\s*|\bnew\s+|\binstanceof\s+|\btypeof\s+)Request\b(?![\w$-])/.test(code) ||
    /\b(?:Loader|Action)FunctionArgs\b/.test(code)
  );
}

/** The longest a module in app/ or db/ may be; a longer one is split by what it does. */
export const MAX_MODULE_LINES = 400;

// Modules over the limit, with their length: each may only shrink, and leaves the list once within it (none today).
const LONG_MODULES: Record<string, number> = {};

export function lineCount(text: string): number {
  if (text === "") return 0;
  const lines = text.split("\n").length;
  return text.endsWith("\n") ? lines - 1 : lines;
}

function moduleLengths(): Map<string, number> {
  const lengths = new Map<string, number>();
  for (const file of [...sourceFiles(APP), ...sourceFiles(join(ROOT, "db"))]) {
    lengths.set(rel(file), lineCount(readFileSync(file, "utf8")));
  }
  return lengths;
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
      if (fromLayer === "app/utils" && ["app/services", "app/routes", "app/components"].includes(toLayer)) {
        out.push(`${from} -> ${to}: utils never import ${toLayer}`);
      }
      if (PAYMENT_PROVIDER_CLASSES.includes(to) && from !== PAYMENT_FACTORY) {
        out.push(`${from} -> ${to}: only ${PAYMENT_FACTORY} picks a payment provider; others use its interface`);
      }
    }
    if (fromLayer === "app/services") {
      const text = readFileSync(file, "utf8");
      if (/\bnew Response\(|\bResponse\.json\(|\bredirect(WithToast)?\(|\bdata\(\{|createToastHeader|\.reply\(/.test(text)) {
        out.push(`${from}: services never build a Response, toast or form reply`);
      }
      if (/from\s+["']~\/utils\/toast\.server["']|from\s+["']@conform-to\//.test(text))
        out.push(`${from}: services never import toasts or conform`);
      if (takesRequest(text)) out.push(`${from}: services take plain inputs, never a Request`);
    }
  }
  return out;
}

// Known breaches still being moved; this list only ever shrinks, and is empty when the layering is done.
const KNOWN: string[] = [];

const FORM_KIT = "app/components/forms.tsx";
/** Reads the navigation for a page refresh's timing, not for a form's pending state. */
const NAVIGATION_READERS = ["app/utils/misc-react.ts", "app/components/live-updates.tsx"];
const NOT_FOUND_ROUTE = "app/routes/$.tsx";
const SITE_LINKS = "app/components/link.tsx";
const SITE_FORMS = "app/components/form.tsx";

/** Whether the code imports one of `names` from Remix. */
function importsFromRemix(code: string, names: string): boolean {
  return new RegExp(`import\\s*\\{[^}]*\\b(${names})\\b[^}]*\\}\\s*from\\s*["']@remix-run/react["']`).test(code);
}

/** Link or NavLink taken from Remix instead of the site's own (app/components/link.tsx). */
export function importsRouterLinks(code: string): boolean {
  return importsFromRemix(code, "Link|NavLink");
}

/** Form taken from Remix instead of the site's own (app/components/form.tsx). */
export function importsRouterForm(code: string): boolean {
  return importsFromRemix(code, "Form");
}

/** A field's or form's error drawn by hand instead of through the kit's ErrorList. */
export function drawsErrorsByHand(code: string): boolean {
  return /\bfield-error\b/.test(code) || /\.errors\?\.\[0\]/.test(code);
}

/** How the views keep to the route helpers: the form kit, useIsPending, invariantResponse. */
function viewBreaches(): string[] {
  const out: string[] = [];
  for (const file of sourceFiles(APP)) {
    const from = rel(file);
    const fromLayer = layer(from);
    if (fromLayer !== "app/routes" && fromLayer !== "app/components") continue;
    const code = codeOf(readFileSync(file, "utf8"));
    if (from !== FORM_KIT && drawsErrorsByHand(code)) out.push(`${from}: field errors render through the kit (${FORM_KIT})`);
    if (!NAVIGATION_READERS.includes(from) && /\buseNavigation\b/.test(code))
      out.push(`${from}: pending state comes from useIsPending, not useNavigation`);
    if (/\.toLocale(String|DateString|TimeString)\(/.test(code))
      out.push(`${from}: numbers and dates render through domain/format (a kept Intl format), not toLocaleString`);
    if (from !== SITE_LINKS && importsRouterLinks(code))
      out.push(`${from}: links come from ${SITE_LINKS}, which draws plain ones without React Router's work`);
    if (from !== SITE_FORMS && importsRouterForm(code))
      out.push(`${from}: forms come from ${SITE_FORMS}, which draws plain ones without React Router's work`);
    if (fromLayer === "app/routes" && from !== NOT_FOUND_ROUTE && /throw new Response\(/.test(code))
      out.push(`${from}: a refusal is invariantResponse or the AppError mapper, not a hand-built Response`);
  }
  return out;
}

// Views whose refusal still renders by hand; this list only shrinks.
const KNOWN_VIEW_BREACHES: string[] = [];

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

describe("views keep to the route helpers", () => {
  test("field errors render through the kit, pending state through useIsPending, links and forms through the site's own, numbers through kept formats, and pages throw no hand-built Response", () => {
    expect(viewBreaches().filter((v) => !KNOWN_VIEW_BREACHES.includes(v))).toEqual([]);
  });

  test("the known list holds no breach that is already gone", () => {
    const now = new Set(viewBreaches());
    expect(KNOWN_VIEW_BREACHES.filter((v) => !now.has(v))).toEqual([]);
  });

  test("the checker sees links and forms taken from Remix (it can fail)", () => {
    expect(importsRouterLinks('import { Form, Link } from "@remix-run/react";')).toBe(true);
    expect(importsRouterLinks('import {\n  NavLink,\n  useLoaderData,\n} from "@remix-run/react";')).toBe(true);
    expect(importsRouterLinks('import { Links, Meta, type LinkProps } from "@remix-run/react";')).toBe(false);
    expect(importsRouterLinks('import { Link } from "~/components/link";')).toBe(false);
    expect(importsRouterForm('import { Form, useLoaderData } from "@remix-run/react";')).toBe(true);
    expect(importsRouterForm('import { type FormProps, useFetcher } from "@remix-run/react";')).toBe(false);
    expect(importsRouterForm('import { Form } from "~/components/form";')).toBe(false);
  });

  test("the checker sees a hand-drawn error (it can fail)", () => {
    expect(drawsErrorsByHand('<p className="field-error">{fields.name.errors?.[0]}</p>')).toBe(true);
    expect(drawsErrorsByHand("<p>{fields.name.errors?.[0]}</p>")).toBe(true);
    expect(drawsErrorsByHand("<ErrorList id={fields.name.errorId} errors={fields.name.errors} />")).toBe(false);
  });
});

describe("services take plain inputs", () => {
  test("the checker sees a Request in code, not in comments or texts", () => {
    expect(takesRequest("export async function getSiteStats(request?: Request) {}")).toBe(true);
    expect(takesRequest("function f(options: { request: Request | undefined }) {}")).toBe(true);
    expect(takesRequest("export function loader({ request }: LoaderFunctionArgs) {}")).toBe(true);
    expect(takesRequest("if (x instanceof Request) return;")).toBe(true);
    expect(takesRequest('// Request Payout for one job\nnotify(id, "New Order Request", "text");')).toBe(false);
    expect(takesRequest("export interface TransitionRequest {}\nfunction f(r: TransitionRequest) {}")).toBe(false);
  });
});

describe("module length", () => {
  test(`no module in app/ or db/ is over ${MAX_MODULE_LINES} lines beyond the listed ones, and those only shrink`, () => {
    const over = [...moduleLengths()]
      .filter(([file, lines]) => lines > Math.max(MAX_MODULE_LINES, LONG_MODULES[file] ?? 0))
      .map(([file, lines]) => `${file}: ${lines} lines (allowed ${LONG_MODULES[file] ?? MAX_MODULE_LINES})`);
    expect(over).toEqual([]);
  });

  test("the list of long modules holds none that is gone or already within the limit", () => {
    const lengths = moduleLengths();
    const done = Object.keys(LONG_MODULES).filter((file) => (lengths.get(file) ?? 0) <= MAX_MODULE_LINES);
    expect(done).toEqual([]);
  });

  test("lines are counted as an editor numbers them", () => {
    expect(lineCount("")).toBe(0);
    expect(lineCount("a\nb\n")).toBe(2);
    expect(lineCount("a\nb")).toBe(2);
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
