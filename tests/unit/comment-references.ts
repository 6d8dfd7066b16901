// Finds comments that point at documents outside the repository (the product spec and notes kept beside it):
// a comment states the rule itself or points at docs/decisions. Used by architecture.test.ts.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

/** References to documents that are not in the repository. */
export const EXTERNAL_REFERENCE_PATTERNS: RegExp[] = [
  new RegExp("document 00[01]", "i"),
  new RegExp("\u00a7"),
  new RegExp("DECISIONS (section|\u00a7)"),
  new RegExp("\\.\\./shared"),
];

export const SCANNED_FOLDERS = ["app", "server", "db", "tests"];
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs|jsx|css)$/;
export const ALLOW_LIST = "tests/unit/external-references.allow.txt";

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name.startsWith(".")) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (SOURCE.test(name)) out.push(path);
  }
  return out;
}

/**
 * The comments of a source file (line, block and JSX comments), skipping strings, template text and
 * regular expression literals, so a message or a pattern that mentions a document is not taken for a comment.
 */
export function commentsOf(text: string): string[] {
  const comments: string[] = [];
  let i = 0;
  // the last significant character decides whether a slash starts a regular expression or divides
  let last = "";
  const regexMayFollow = () =>
    last === "" || /[(,=:[!&|?{};+\-*%<>~^]/.test(last) || /\b(return|typeof|case|in|of)$/.test(text.slice(0, i).trimEnd());
  while (i < text.length) {
    const ch = text[i]!;
    const next = text[i + 1];
    if (ch === "/" && next === "/") {
      const end = text.indexOf("\n", i);
      comments.push(text.slice(i + 2, end === -1 ? text.length : end));
      i = end === -1 ? text.length : end;
      continue;
    }
    if (ch === "/" && next === "*") {
      const end = text.indexOf("*/", i + 2);
      comments.push(text.slice(i + 2, end === -1 ? text.length : end));
      i = end === -1 ? text.length : end + 2;
      continue;
    }
    if (ch === '"' || ch === "'") {
      i++;
      while (i < text.length && text[i] !== ch && text[i] !== "\n") i += text[i] === "\\" ? 2 : 1;
      i++;
      last = ch;
      continue;
    }
    if (ch === "`") {
      // template text; ${...} parts are code, but comments inside them are rare enough to skip with the text
      i++;
      while (i < text.length && text[i] !== "`") i += text[i] === "\\" ? 2 : 1;
      i++;
      last = ch;
      continue;
    }
    if (ch === "/" && regexMayFollow()) {
      i++;
      let inClass = false;
      while (i < text.length && text[i] !== "\n") {
        const c = text[i]!;
        if (c === "\\") {
          i += 2;
          continue;
        }
        if (c === "[") inClass = true;
        else if (c === "]") inClass = false;
        else if (c === "/" && !inClass) break;
        i++;
      }
      i++;
      last = "/";
      continue;
    }
    if (!/\s/.test(ch)) last = ch;
    i++;
  }
  return comments;
}

/** For every scanned file with such comments, how many it has (paths relative to the project root). */
export function externalReferenceCounts(root: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const folder of SCANNED_FOLDERS) {
    for (const file of sourceFiles(join(root, folder))) {
      const n = commentsOf(readFileSync(file, "utf8")).filter((c) => EXTERNAL_REFERENCE_PATTERNS.some((p) => p.test(c))).length;
      if (n > 0) counts.set(relative(root, file), n);
    }
  }
  return counts;
}

/** The allow-list: one "path count" per line; blank lines and lines starting with # are skipped. */
export function loadAllowList(root = join(__dirname, "../..")): Map<string, number> {
  const allowed = new Map<string, number>();
  const path = join(root, ALLOW_LIST);
  if (!existsSync(path)) return allowed;
  for (const line of readFileSync(path, "utf8").split("\n")) {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith("#")) continue;
    const [file, count] = trimmed.split(/\s+/);
    allowed.set(file!, Number(count));
  }
  return allowed;
}
