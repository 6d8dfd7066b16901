import type { RouteConfig } from "@react-router/dev/routes";
import { flatRoutes } from "@react-router/fs-routes";

/** Files in app/routes that are no route: hidden files, tests and server-only modules beside their routes. */
export const IGNORED_ROUTE_FILES = ["**/.*", "**/*.test.ts", "**/*.test.tsx", "**/*.server.ts"];

// File-system routes: one module per URL in app/routes.
export default flatRoutes({ ignoredRouteFiles: IGNORED_ROUTE_FILES }) satisfies RouteConfig;
