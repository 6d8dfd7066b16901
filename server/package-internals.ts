// The few modules inside Remix's packages whose functions the server replaces (route matching, the render's
// route tables, loader requests): a require that resolves from within the package, as its own code does, so
// the module replaced is the very one the package calls.
import { createRequire } from "node:module";

/** A require for paths inside the package `name` ("./entry.js", or a dependency of that package). */
export function requireInside(name: string): NodeRequire {
  return createRequire(createRequire(import.meta.url).resolve(name));
}
