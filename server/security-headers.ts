// Security headers for every answer, and the Content-Security-Policy of each page: Remix's inline
// scripts carry a fresh nonce per request; images may come from the map tiles and the catalogue.
import { randomBytes } from "node:crypto";

export function newNonce() {
  return randomBytes(16).toString("base64");
}

/** The origin a tile URL template is served from ("https://{s}.tile.example/{z}/{x}/{y}.png" → "https://*.tile.example"). */
export function tileSource(template: string): string | null {
  const match = /^(https?):\/\/([^/?#]+)/i.exec(template.trim());
  if (!match) return null;
  const host = match[2].replace(/\{s\}/g, "*").replace(/\{[^}]*\}/g, "*");
  return /^[a-z0-9*.:-]+$/i.test(host) ? `${match[1].toLowerCase()}://${host.toLowerCase()}` : null;
}

export interface PolicyInput {
  nonce: string;
  /** the request's path: some pages need more sources than the rest */
  path: string;
  /** MAP_TILE_URL's template (or the default tile server's) */
  tileUrl: string;
  catalogueImageSources: readonly string[];
}

/** Extra sources a page needs beyond the site-wide policy. */
function pageSources(path: string): { script: string[]; frame: string[]; connect: string[]; form: string[] } {
  const extra = { script: [] as string[], frame: [] as string[], connect: [] as string[], form: [] as string[] };
  if (path === "/checkout" || path.startsWith("/checkout/")) {
    // the card provider, on the checkout pages only: Stripe.js and its frames (Elements), its API,
    // and its hosted checkout page that the no-JavaScript form post redirects to
    extra.script.push("https://js.stripe.com");
    extra.frame.push("https://js.stripe.com", "https://hooks.stripe.com");
    extra.connect.push("https://api.stripe.com");
    extra.form.push("https://checkout.stripe.com");
  }
  return extra;
}

export function contentSecurityPolicy({ nonce, path, tileUrl, catalogueImageSources }: PolicyInput): string {
  const extra = pageSources(path);
  const tiles = tileSource(tileUrl);
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", `'nonce-${nonce}'`, ...extra.script],
    // React style attributes, Leaflet's positioning and the toasts set inline styles
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:", ...(tiles ? [tiles] : []), ...catalogueImageSources],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'", ...extra.connect],
    // the 3D viewer's analysis worker is a module of our own
    "worker-src": ["'self'", "blob:"],
    "frame-src": extra.frame.length ? extra.frame : ["'none'"],
    "manifest-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'", ...extra.form],
    "frame-ancestors": ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(" ")}`)
    .join("; ");
}

/** Headers every answer carries besides the policy. */
export const SECURITY_HEADERS: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  // map tiles are fetched from the tile server with our origin as referrer, as its policy asks
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Permissions-Policy":
    "camera=(), microphone=(), geolocation=(), usb=(), serial=(), bluetooth=(), midi=(), payment=(self), interest-cohort=()",
};
