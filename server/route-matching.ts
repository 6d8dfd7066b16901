// React Router 6's matchRoutes flattens and ranks the whole route table and compiles a regular expression for
// every route it tries, on every call: Remix calls it about four times per request (decision 036). This is the
// same matching with that work done once per route table: the ranked branches are kept per table (by identity,
// and by shape for the tables Remix builds anew per render) and each branch's patterns are compiled once.
// Ported from @remix-run/router 1.23 (MIT): flattenRoutes, explodeOptionalSegments, rankRouteBranches,
// computeScore, compareIndexes, matchRouteBranch, matchPath and compilePath; the unit test holds it to the original.
import { createRequire } from "node:module";
import type * as RouterModule from "@remix-run/router";
import { requireInside } from "./package-internals";
import { chainStaticHandlers } from "./route-chain-handlers";

type Router = typeof RouterModule;
type Location = Parameters<Router["matchRoutes"]>[1];
type Match = NonNullable<ReturnType<Router["matchRoutes"]>>[number];

/** The fields of a route that matching reads. */
export interface MatchableRoute {
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  children?: MatchableRoute[];
}

interface CompiledPattern {
  matcher: RegExp;
  params: { paramName: string; isOptional?: boolean }[];
}

interface MetaShape {
  relativePath: string;
  caseSensitive: boolean;
  /** positions from the table's top: table[chain[0]].children[chain[1]]… is this level's route */
  chain: number[];
  /** the pattern as the last level of its branch (end) and as a parent level */
  last: CompiledPattern;
  parent: CompiledPattern;
}

/** How many table shapes are kept (a production server has one; development builds one per change). */
const MAX_SHAPES = 20;
const shapes = new Map<string, MetaShape[][]>();
const tables = new WeakMap<object, MetaShape[][]>();

const paramRe = /^:[\w-]+$/;
const isSplat = (s: string) => s === "*";

function computeScore(path: string, index: boolean | undefined): number {
  const segments = path.split("/");
  let initialScore = segments.length;
  if (segments.some(isSplat)) initialScore += -2;
  if (index) initialScore += 2;
  return segments
    .filter((s) => !isSplat(s))
    .reduce((score, segment) => score + (paramRe.test(segment) ? 3 : segment === "" ? 1 : 10), initialScore);
}

function compareIndexes(a: number[], b: number[]): number {
  const siblings = a.length === b.length && a.slice(0, -1).every((n, i) => n === b[i]);
  // siblings keep their written order; other branches of equal score sort equally
  return siblings ? a[a.length - 1]! - b[b.length - 1]! : 0;
}

function explodeOptionalSegments(path: string): string[] {
  const segments = path.split("/");
  if (segments.length === 0) return [];
  const [first, ...rest] = segments as [string, ...string[]];
  const isOptional = first.endsWith("?");
  const required = first.replace(/\?$/, "");
  if (rest.length === 0) return isOptional ? [required, ""] : [required];
  const restExploded = explodeOptionalSegments(rest.join("/"));
  const result: string[] = [];
  result.push(...restExploded.map((subpath) => (subpath === "" ? required : [required, subpath].join("/"))));
  if (isOptional) result.push(...restExploded);
  return result.map((exploded) => (path.startsWith("/") && exploded === "" ? "/" : exploded));
}

const compiled = new Map<string, CompiledPattern>();

function compilePath(path: string, caseSensitive: boolean, end: boolean): CompiledPattern {
  const key = `${caseSensitive ? 1 : 0}${end ? 1 : 0}${path}`;
  const known = compiled.get(key);
  if (known) return known;
  if (!(path === "*" || !path.endsWith("*") || path.endsWith("/*"))) {
    const fixed = path.replace(/\*$/, "/*");
    console.warn(
      `Route path "${path}" will be treated as if it were "${fixed}" because the \`*\` character must always follow a \`/\` in the pattern. To get rid of this warning, please change the route path to "${fixed}".`,
    );
  }
  const params: CompiledPattern["params"] = [];
  let regexpSource =
    "^" +
    path
      .replace(/\/*\*?$/, "")
      .replace(/^\/*/, "/")
      .replace(/[\\.*+^${}|()[\]]/g, "\\$&")
      .replace(/\/:([\w-]+)(\?)?/g, (_, paramName: string, isOptional?: string) => {
        params.push({ paramName, isOptional: isOptional != null });
        return isOptional ? "/?([^\\/]+)?" : "/([^\\/]+)";
      });
  if (path.endsWith("*")) {
    params.push({ paramName: "*" });
    regexpSource += path === "*" || path === "/*" ? "(.*)$" : "(?:\\/(.+)|\\/*)$";
  } else if (end) {
    regexpSource += "\\/*$";
  } else if (path !== "" && path !== "/") {
    regexpSource += "(?:(?=\\/|$))";
  }
  const pattern = { matcher: new RegExp(regexpSource, caseSensitive ? undefined : "i"), params };
  compiled.set(key, pattern);
  return pattern;
}

function invariant(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/** The table's branches, ranked, as positions and patterns (no route objects: a shape serves every table like it). */
function flattenAndRank(routes: MatchableRoute[], joinPaths: (paths: string[]) => string): MetaShape[][] {
  const branches: { path: string; score: number; metas: MetaShape[]; indexes: number[] }[] = [];
  const flatten = (level: MatchableRoute[], parentsMeta: MetaShape[], parentPath: string) => {
    const flattenRoute = (route: MatchableRoute, index: number, relativePath?: string) => {
      let relative = relativePath === undefined ? route.path || "" : relativePath;
      if (relative.startsWith("/")) {
        invariant(
          relative.startsWith(parentPath),
          `Absolute route path "${relative}" nested under path "${parentPath}" is not valid. An absolute child route path must start with the combined path of all its parent routes.`,
        );
        relative = relative.slice(parentPath.length);
      }
      const caseSensitive = route.caseSensitive === true;
      const path = joinPaths([parentPath, relative]);
      const meta: MetaShape = {
        relativePath: relative,
        caseSensitive,
        chain: [...(parentsMeta.at(-1)?.chain ?? []), index],
        last: compilePath(relative, caseSensitive, true),
        parent: compilePath(relative, caseSensitive, false),
      };
      const metas = parentsMeta.concat(meta);
      if (route.children && route.children.length > 0) {
        invariant(
          route.index !== true,
          `Index routes must not have child routes. Please remove all child routes from route path "${path}".`,
        );
        flatten(route.children, metas, path);
      }
      if (route.path == null && !route.index) return;
      branches.push({ path, score: computeScore(path, route.index), metas, indexes: metas.map((m) => m.chain.at(-1)!) });
    };
    level.forEach((route, index) => {
      if (route.path === "" || !route.path?.includes("?")) flattenRoute(route, index);
      else for (const exploded of explodeOptionalSegments(route.path)) flattenRoute(route, index, exploded);
    });
  };
  flatten(routes, [], "");
  branches.sort((a, b) => (a.score !== b.score ? b.score - a.score : compareIndexes(a.indexes, b.indexes)));
  return branches.map((b) => b.metas);
}

/** What matching reads of a table, as a string: equal for two tables that match alike. */
export function tableShape(routes: MatchableRoute[]): string {
  let out = "";
  const walk = (level: MatchableRoute[]) => {
    out += "[";
    for (const route of level) {
      out += `${JSON.stringify(route.path ?? null)}${route.path === undefined ? "u" : ""}${route.index === true ? "I" : route.index ? "i" : ""}${route.caseSensitive === true ? "C" : ""}`;
      if (route.children && route.children.length > 0) walk(route.children);
      out += ",";
    }
    out += "]";
  };
  walk(routes);
  return out;
}

/** The ranked branches of a table: kept for the table, and for every table of its shape. */
function branchesOf(routes: MatchableRoute[], joinPaths: (paths: string[]) => string): MetaShape[][] {
  let ranked = tables.get(routes);
  if (ranked) return ranked;
  const shape = tableShape(routes);
  ranked = shapes.get(shape);
  if (!ranked) {
    ranked = flattenAndRank(routes, joinPaths);
    if (shapes.size >= MAX_SHAPES) shapes.delete(shapes.keys().next().value!);
    shapes.set(shape, ranked);
  }
  tables.set(routes, ranked);
  return ranked;
}

/** The route of this table at a branch level's positions. */
function routeAt(routes: MatchableRoute[], chain: number[]): MatchableRoute {
  let route = routes[chain[0]!]!;
  for (let i = 1; i < chain.length; i++) route = route.children![chain[i]!]!;
  return route;
}

function matchPattern(pattern: CompiledPattern, pathname: string) {
  const match = pathname.match(pattern.matcher);
  if (!match) return null;
  const matchedPathname = match[0];
  let pathnameBase = matchedPathname.replace(/(.)\/+$/, "$1");
  const captureGroups = match.slice(1);
  const params: Record<string, string | undefined> = {};
  pattern.params.forEach(({ paramName, isOptional }, index) => {
    // pathnameBase comes from the raw splat value, before it is decoded
    if (paramName === "*") {
      const splatValue = captureGroups[index] || "";
      pathnameBase = matchedPathname.slice(0, matchedPathname.length - splatValue.length).replace(/(.)\/+$/, "$1");
    }
    const value = captureGroups[index];
    params[paramName] = isOptional && !value ? undefined : (value || "").replace(/%2F/g, "/");
  });
  return { params, pathname: matchedPathname, pathnameBase };
}

/** How many decoded addresses each ranked table remembers the matching branch of. */
const MAX_REMEMBERED_PATHS = 2000;
const winners = new WeakMap<MetaShape[][], Map<string, number>>();

/** matchRoutes of @remix-run/router, with the table's ranked branches and patterns made once. */
export function cachedMatchRoutes(router: Router): Router["matchRoutes"] {
  const { joinPaths, normalizePathname, parsePath, stripBasename, UNSAFE_decodePath: decodePath } = router;
  /** The branch's matches for the address, or null when one of its levels does not match. */
  const matchBranch = (routes: MatchableRoute[], metas: MetaShape[], decoded: string): Match[] | null => {
    const matchedParams: Record<string, string | undefined> = {};
    let matchedPathname = "/";
    const matches: Match[] = [];
    for (let i = 0; i < metas.length; ++i) {
      const meta = metas[i]!;
      const end = i === metas.length - 1;
      const remainingPathname = matchedPathname === "/" ? decoded : decoded.slice(matchedPathname.length) || "/";
      const match = matchPattern(end ? meta.last : meta.parent, remainingPathname);
      if (!match) return null;
      Object.assign(matchedParams, match.params);
      matches.push({
        params: matchedParams,
        pathname: joinPaths([matchedPathname, match.pathname]),
        pathnameBase: normalizePathname(joinPaths([matchedPathname, match.pathnameBase])),
        route: routeAt(routes, meta.chain),
      } as Match);
      if (match.pathnameBase !== "/") matchedPathname = joinPaths([matchedPathname, match.pathnameBase]);
    }
    return matches;
  };
  return function matchRoutes(routes, locationArg: Location, basename = "/") {
    const location = typeof locationArg === "string" ? parsePath(locationArg) : locationArg;
    const pathname = stripBasename(location.pathname || "/", basename);
    if (pathname == null) return null;
    const decoded = decodePath(pathname);
    const table = routes as MatchableRoute[];
    const ranked = branchesOf(table, joinPaths);
    // the same address finds the same branch of a table of the same shape: only that branch is matched again
    let remembered = winners.get(ranked);
    if (!remembered) winners.set(ranked, (remembered = new Map()));
    const known = remembered.get(decoded);
    if (known !== undefined) return known < 0 ? null : (matchBranch(table, ranked[known]!, decoded) as never);
    let found = -1;
    let matches: Match[] | null = null;
    for (let i = 0; i < ranked.length && !matches; i++) {
      matches = matchBranch(table, ranked[i]!, decoded);
      if (matches) found = i;
    }
    if (remembered.size >= MAX_REMEMBERED_PATHS) remembered.delete(remembered.keys().next().value!);
    remembered.set(decoded, found);
    return matches as never;
  };
}

/**
 * Puts the cached matchRoutes in @remix-run/router's exports, where Remix's server runtime, its partial
 * manifest and React Router's render look it up on each call, and keeps the render's route tables per build
 * (for a production build, `modulesFixed`, also its list of route modules). Once per process; the originals
 * stay reachable.
 */
export function installCachedRouteMatching({ modulesFixed = false } = {}): { original: Router["matchRoutes"] } {
  const require = createRequire(import.meta.url);
  const router = require("@remix-run/router") as Router & { __printnearOriginalMatchRoutes?: Router["matchRoutes"] };
  const conversions = router as unknown as { UNSAFE_convertRoutesToDataRoutes: ConvertRoutes };
  if (!router.__printnearOriginalMatchRoutes) {
    router.__printnearOriginalMatchRoutes = router.matchRoutes;
    const matchRoutes = cachedMatchRoutes(router);
    (router as { matchRoutes: Router["matchRoutes"] }).matchRoutes = matchRoutes;
    // the static handler's query matches with the router's private function: it gets only the matched routes
    (router as { createStaticHandler: Router["createStaticHandler"] }).createStaticHandler = chainStaticHandlers(
      router.createStaticHandler,
      matchRoutes,
    );
    conversions.UNSAFE_convertRoutesToDataRoutes = keptDataRoutes(conversions.UNSAFE_convertRoutesToDataRoutes);
    // the module RemixServer calls createServerRoutes on, resolved from @remix-run/react's own entry
    const remixRoutes = requireInside("@remix-run/react")("./routes.js") as {
      createServerRoutes: CreateServerRoutes;
    };
    remixRoutes.createServerRoutes = keptServerRoutes(remixRoutes.createServerRoutes, { modulesFixed });
    if (modulesFixed) {
      // the module whose export the server runtime's document request calls for the render's route modules
      const entry = requireInside("@remix-run/server-runtime")("./entry.js") as {
        createEntryRouteModules: CreateEntryRouteModules;
      };
      entry.createEntryRouteModules = keptEntryRouteModules(entry.createEntryRouteModules);
    }
  }
  return { original: router.__printnearOriginalMatchRoutes };
}

type CreateServerRoutes = (
  manifest: Record<string, unknown>,
  routeModules: Record<string, unknown>,
  future: unknown,
  isSpaMode: boolean,
  ...rest: unknown[]
) => unknown[];
type ConvertRoutes = (
  routes: unknown[],
  mapRouteProperties: unknown,
  parentPath?: unknown,
  manifest?: Record<string, unknown>,
) => unknown[];

/**
 * Remix's render makes the route objects of the whole table on every request, for the same build: the table
 * is kept per build manifest while every route module is the same, so the render's routes are made once.
 * A production build's modules never change (`modulesFixed`): there the hundred-odd modules are not compared.
 */
export function keptServerRoutes(original: CreateServerRoutes, { modulesFixed = false } = {}): CreateServerRoutes {
  const made = new WeakMap<
    object,
    { modules: Record<string, unknown>; future: unknown; isSpaMode: boolean; routes: unknown[] }
  >();
  const sameModules = (a: Record<string, unknown>, b: Record<string, unknown>) => {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((id) => a[id] === b[id]);
  };
  return (manifest, routeModules, future, isSpaMode, ...rest) => {
    if (rest.length > 0) return original(manifest, routeModules, future, isSpaMode, ...rest);
    const kept = made.get(manifest);
    if (
      kept &&
      kept.future === future &&
      kept.isSpaMode === isSpaMode &&
      (modulesFixed || sameModules(kept.modules, routeModules))
    )
      return kept.routes;
    const routes = original(manifest, routeModules, future, isSpaMode);
    made.set(manifest, { modules: { ...routeModules }, future, isSpaMode, routes });
    return routes;
  };
}

type CreateEntryRouteModules = (routes: Record<string, { module: unknown }>) => Record<string, unknown>;

/**
 * Remix's document request lists every route module of the build by id anew (a pass over the whole table) for
 * the render, which only reads it. A production build's modules never change, so the list is made once per
 * build's route table and shared, frozen: a write into it would throw rather than reach the next request.
 */
export function keptEntryRouteModules(original: CreateEntryRouteModules): CreateEntryRouteModules {
  const made = new WeakMap<object, Record<string, unknown>>();
  return (routes) => {
    let modules = made.get(routes);
    if (!modules) {
      modules = Object.freeze(original(routes));
      made.set(routes, modules);
    }
    return modules;
  };
}

/** React Router's static router converts the render's table again on every request: kept per table. */
export function keptDataRoutes(original: ConvertRoutes): ConvertRoutes {
  const made = new WeakMap<object, { mapRouteProperties: unknown; routes: unknown[]; manifest: Record<string, unknown> }>();
  return (routes, mapRouteProperties, parentPath, manifest) => {
    if (parentPath !== undefined) return original(routes, mapRouteProperties, parentPath, manifest);
    let kept = made.get(routes);
    if (!kept || kept.mapRouteProperties !== mapRouteProperties) {
      const filled: Record<string, unknown> = {};
      kept = { mapRouteProperties, routes: original(routes, mapRouteProperties, undefined, filled), manifest: filled };
      made.set(routes, kept);
    }
    if (manifest) Object.assign(manifest, kept.manifest);
    return kept.routes;
  };
}
