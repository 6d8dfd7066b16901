import type { RouteConfig } from "@remix-run/route-config";
import { flatRoutes } from "@remix-run/fs-routes";
import remixConfig from "../remix.config.js";

// File-system routes (one module per URL in app/routes), options from remix.config.js.
export default flatRoutes({ ignoredRouteFiles: remixConfig.ignoredRouteFiles }) satisfies RouteConfig;
