// The app's route table as Remix's server builds it, and addresses that reach every route of it, for the
// tests of route matching (server/route-matching.ts, server/route-chain-handlers.ts).
import { resolve } from "node:path";
import { UNSAFE_flatRoutes as flatRoutes } from "@remix-run/dev";
import remixConfig from "../../remix.config.js";
import type { MatchableRoute } from "../../server/route-matching";

export interface TableRoute extends MatchableRoute {
  id: string;
  children?: TableRoute[];
}

/** The app's route table as Remix's server builds it: root, and each route under its parent. */
export function appRoutes(): TableRoute[] {
  const manifest = flatRoutes(resolve("app"), remixConfig.ignoredRouteFiles);
  const childrenOf = (parentId: string): TableRoute[] =>
    Object.values(manifest)
      .filter((r) => (r.parentId ?? "root") === parentId)
      .map((r) => ({ id: r.id, path: r.path, index: r.index, caseSensitive: r.caseSensitive, children: childrenOf(r.id) }));
  return [{ id: "root", path: "", children: childrenOf("root") }];
}

/** Addresses for each route's full path: params filled, optional segments on and off, odd spellings. */
export function samplePaths(routes: TableRoute[]): string[] {
  const paths = new Set<string>(["/", "", "/nope", "/models/", "//models", "/MODELS", "/api", "/order/abc%2Fdef", "/%E0%A4%A"]);
  const walk = (level: TableRoute[], parentPath: string) => {
    for (const route of level) {
      const full = `${parentPath}/${route.path ?? ""}`.replace(/\/+/g, "/");
      for (const fill of ["42", "a%20b", "x.y"]) {
        const on = full
          .replace(/:[\w-]+\??/g, fill)
          .replace(/\?/g, "")
          .replace(/\*$/, `${fill}/deeper`);
        const off = full.replace(/\/:[\w-]+\?/g, "").replace(/\*$/, "");
        for (const p of [on, off, `${on}/`, on.toUpperCase(), `${on}/extra`]) paths.add(p);
      }
      if (route.children) walk(route.children, full);
    }
  };
  walk(routes, "");
  return [...paths];
}
