// The public files of the build (icons, pictures, the service worker) are served from disk; page addresses
// never name a file, so only a path whose last segment has an extension is looked for there (looking for
// every page on disk first cost a file-system stat per request, 3 % of a signed-in page's work).
import type { NextFunction, Request, RequestHandler, Response } from "express";

export function namesAFile(path: string): boolean {
  // a page's data for client navigation ends in .data and is never a file
  return /\.[^/]+$/.test(path) && !path.endsWith(".data");
}

/** `serve` (express.static) for the paths that name a file; every other request goes on to the next handler. */
export function onlyFilePaths(serve: RequestHandler): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => (namesAFile(req.path) ? serve(req, res, next) : next());
}
