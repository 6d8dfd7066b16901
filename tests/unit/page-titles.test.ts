// Every page route names itself: a meta export whose title ends "| Printnear", no two pages alike.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { apiMethodAnswer } from "../../server/remix-handler";

const ROUTES = "app/routes";

/** Route modules that render a page: a default export in a .tsx file (a folder route's route.tsx). */
function pageModules(): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(ROUTES)) {
    const path = join(ROUTES, entry);
    const file = statSync(path).isDirectory() ? join(path, "route.tsx") : path;
    if (!file.endsWith(".tsx")) continue;
    let source: string;
    try {
      source = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    if (/export default function/.test(source)) found.push(file);
  }
  return found;
}

// layouts whose children carry the title
const LAYOUTS = new Set(["app/routes/admin.tsx"]);

describe("page titles", () => {
  const pages = pageModules().filter((file) => !LAYOUTS.has(file));

  it("finds the page routes", () => {
    expect(pages.length).toBeGreaterThan(30);
  });

  it("gives every page a meta export with a title of its own", () => {
    const missing: string[] = [];
    const titles = new Map<string, string[]>();
    for (const file of pages) {
      const source = readFileSync(file, "utf8");
      if (!/export (const|function) meta\b/.test(source)) {
        missing.push(file);
        continue;
      }
      // the literal titles (a dynamic title's fixed tail counts as well)
      for (const match of source.matchAll(/title:[^\n]*?["`]([^"`]*\| Printnear)["`]/g)) {
        const title = match[1];
        titles.set(title, [...(titles.get(title) ?? []), file]);
      }
      if (file !== "app/routes/_index.tsx") expect(source, file).toMatch(/\| Printnear/);
    }
    expect(missing).toEqual([]);
    const shared = [...titles].filter(([, files]) => new Set(files).size > 1);
    expect(shared).toEqual([]);
  });
});

describe("API method answers", () => {
  const remixError = (status: number) =>
    new Response(JSON.stringify({ message: "Unexpected Server Error" }), {
      status,
      headers: { "Content-Type": "application/json", "X-Remix-Error": "yes" },
    });

  it("answers a known API path asked with the wrong method with 405 JSON", async () => {
    const posted = apiMethodAnswer("/api/stats", "POST", remixError(405));
    expect(posted?.status).toBe(405);
    expect(await posted?.json()).toEqual({ message: "Method not allowed" });
    const read = apiMethodAnswer("/api/calculate-shipping", "GET", remixError(400));
    expect(read?.status).toBe(405);
    expect(read?.headers.get("content-type")).toMatch(/application\/json/);
  });

  it("leaves pages and the routes' own answers alone", () => {
    expect(apiMethodAnswer("/pricing", "POST", remixError(405))).toBeNull();
    expect(apiMethodAnswer("/api/login", "POST", remixError(400))).toBeNull();
    expect(apiMethodAnswer("/api/stats", "GET", Response.json({ message: "Bad input" }, { status: 400 }))).toBeNull();
  });
});
