// Other packages are used through what they publish: no module assigns to a package's exports or to any
// prototype, reaches a file a package does not export, or requires from inside another package.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const BARE_IMPORT =
  /(?:^|\n)\s*import\s+(?:type\s+)?([^;]*?)\s+from\s+["']([^"'./~][^"']*)["']|(?:^|\n)\s*import\s+["']([^"'./~][^"']*)["']|import\(\s*["']([^"'./~][^"']*)["']\s*\)/g;

/** The package name and subpath of a bare specifier ("@scope/pkg/x" → ["@scope/pkg", "./x"]). */
export function splitSpecifier(spec: string): [string, string] {
  const parts = spec.split("/");
  const size = spec.startsWith("@") ? 2 : 1;
  const rest = parts.slice(size).join("/");
  return [parts.slice(0, size).join("/"), rest ? `./${rest}` : "."];
}

/** Whether `subpath` is one the package's `exports` publishes (any subpath when it has no `exports`). */
export function isPublished(exportsField: unknown, subpath: string): boolean {
  if (exportsField === undefined) return true;
  if (typeof exportsField === "string" || Array.isArray(exportsField)) return subpath === ".";
  const keys = Object.keys(exportsField as object);
  // an exports object of conditions ("import", "require") publishes only the package itself
  if (!keys.some((key) => key.startsWith("."))) return subpath === ".";
  return keys.some((key) => {
    if (key === subpath) return true;
    const star = key.indexOf("*");
    return star >= 0 && subpath.startsWith(key.slice(0, star)) && subpath.endsWith(key.slice(star + 1));
  });
}

function exportsOf(root: string, name: string): unknown {
  const manifest = join(root, "node_modules", name, "package.json");
  if (!existsSync(manifest)) return undefined;
  return (JSON.parse(readFileSync(manifest, "utf8")) as { exports?: unknown }).exports;
}

/** The local names a binding pattern declares (`x`, or `{ a, b: c }`). */
function localsOf(pattern: string): string[] {
  if (!pattern.startsWith("{")) return [pattern];
  return pattern
    .slice(1, -1)
    .split(",")
    .map((one) => one.split(":").at(-1)!.split("=")[0]!.trim())
    .filter((local) => /^[\w$]+$/.test(local));
}

/** What a module does to other packages that it should not: each breach in words. */
export function packageBreaches(code: string, root: string): string[] {
  const out: string[] = [];
  const packageBindings: string[] = [];
  for (const m of code.matchAll(BARE_IMPORT)) {
    const spec = m[2] ?? m[3] ?? m[4]!;
    if (spec.startsWith("node:")) continue;
    const [name, subpath] = splitSpecifier(spec);
    if (!isPublished(exportsOf(root, name), subpath)) out.push(`imports ${spec}, a file ${name} does not export`);
    if (spec.includes("node_modules/")) out.push(`imports ${spec}, a file inside node_modules`);
    const clause = m[1];
    if (clause) {
      for (const binding of clause.matchAll(/\*\s+as\s+([\w$]+)|(?:^|,)\s*([\w$]+)\s*(?=,|\{|$)|\bas\s+([\w$]+)|\{([^}]*)\}/g)) {
        if (binding[4] !== undefined) {
          for (const one of binding[4].split(",")) {
            const local = one
              .trim()
              .replace(/^type\s+/, "")
              .split(/\s+as\s+/)
              .at(-1)
              ?.trim();
            if (local) packageBindings.push(local);
          }
        } else {
          const local = binding[1] ?? binding[2] ?? binding[3];
          if (local && local !== "type") packageBindings.push(local);
        }
      }
    }
  }
  // what is bound from a package's value: its dynamic import or require, a member, a call's result, a prototype
  const dynamic =
    /(?:const|let|var)\s+(\{[^}]*\}|[\w$]+)\s*(?::[^=]+)?=\s*(?:await\s+)?(?:import\(\s*["'][^"'./~][^"']*["']\s*\)|(?:createRequire\([^;]*\)|require|requireInside\([^)]*\))\(\s*["'][^"']+["']\s*\)|[^;\n]*\.prototype\s*;)/g;
  for (const m of code.matchAll(dynamic)) packageBindings.push(...localsOf(m[1]!));
  for (let grew = true; grew;) {
    grew = false;
    const known = new Set(packageBindings);
    for (const m of code.matchAll(/(?:const|let|var)\s+(\{[^}]*\}|[\w$]+)\s*(?::[^=]+)?=\s*(?:await\s+)?\(?\s*([\w$]+)\b/g)) {
      // a hook's result (a ref, a state) is the component's own
      if (!known.has(m[2]!) || /^use[A-Z]/.test(m[2]!)) continue;
      for (const local of localsOf(m[1]!)) {
        if (known.has(local)) continue;
        packageBindings.push(local);
        grew = true;
      }
    }
  }
  if (
    /\.prototype(?:\.[\w$]+|\[[^\]]+\])\s*=(?!=)/.test(code) ||
    /Object\.(?:defineProperty|assign)\(\s*[\w$.]+\.prototype\b/.test(code)
  )
    out.push("assigns to a prototype");
  for (const local of new Set(packageBindings)) {
    const name = local.replace(/\$/g, "\\$");
    // a type annotation (`x: Pkg["y"] = …`) assigns to no export; a cast of the value (`(x as T).y = …`) does
    const assigned = new RegExp(
      `(?<!:\\s*)(?<![\\w$.])(?:${name}|\\(\\s*${name}\\s+as\\s+[^()]*\\))(?:\\.[\\w$]+|\\[[^\\]]+\\])+\\s*=(?![=>])`,
    );
    const redefined = new RegExp(`Object\\.(?:defineProperty|defineProperties|assign)\\(\\s*${name}\\b`);
    if (assigned.test(code) || redefined.test(code)) out.push(`assigns to ${local}, another package's value`);
  }
  if (/createRequire\(\s*createRequire\(|createRequire\([^)]*\.resolve\(/.test(code))
    out.push("requires from inside another package");
  return out;
}
