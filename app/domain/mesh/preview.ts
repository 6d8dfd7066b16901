// Software-rendered PNG thumbnail for pages without JavaScript: z-buffer, flat shading, isometric view.

import { zlibSync } from "fflate";
import type { Mesh } from "./types";

export interface PreviewOptions {
  width?: number;
  height?: number;
  /** RGB 0-255 */
  background?: [number, number, number];
  color?: [number, number, number];
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(data: Uint8Array, start = 0, end = data.length): number {
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, data.length);
  for (let k = 0; k < 4; k++) out[4 + k] = type.charCodeAt(k);
  out.set(data, 8);
  dv.setUint32(8 + data.length, crc32(out, 4, 8 + data.length));
  return out;
}

export function encodePng(rgb: Uint8Array, width: number, height: number): Uint8Array {
  const ihdr = new Uint8Array(13);
  const dv = new DataView(ihdr.buffer);
  dv.setUint32(0, width);
  dv.setUint32(4, height);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour RGB
  // each row starts with filter type 0 (none): shaded flat colours compress well without prediction
  const raw = new Uint8Array(height * (1 + width * 3));
  for (let y = 0; y < height; y++) raw.set(rgb.subarray(y * width * 3, (y + 1) * width * 3), y * (1 + width * 3) + 1);
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", zlibSync(raw, { level: 6 })),
    chunk("IEND", new Uint8Array(0)),
  ];
  const total = parts.reduce((s, p) => s + p.length, 0);
  const png = new Uint8Array(total);
  let o = 0;
  for (const p of parts) {
    png.set(p, o);
    o += p.length;
  }
  return png;
}

/**
 * Pixel tests (pixels inside triangles' screen boxes) one preview may spend, per pixel of the image. A real
 * mesh covers its image a few times over (front and back faces, boxes twice a triangle's area); a file of
 * frame-filling triangles would otherwise cost width x height per triangle. Once the budget is spent, the
 * remaining triangles are drawn as single points at their centres, as sub-pixel triangles always are.
 */
export const PREVIEW_PIXEL_BUDGET_PER_PIXEL = 64;

export interface PreviewResult {
  png: Uint8Array;
  /** pixel tests spent filling triangles (bounded by the budget plus one image) */
  pixelsTested: number;
  /** triangles drawn as a point because the budget was spent */
  degradedTriangles: number;
}

/** Renders the mesh from above-front-right, fitted to the image, and returns PNG bytes. */
export function renderPreviewPng(mesh: Mesh, options: PreviewOptions = {}): Uint8Array {
  return renderPreview(mesh, options).png;
}

/** renderPreviewPng with the work it did, so the bound on it can be checked. */
export function renderPreview(mesh: Mesh, options: PreviewOptions = {}): PreviewResult {
  const W = Math.max(8, Math.min(2048, Math.round(options.width ?? 320)));
  const H = Math.max(8, Math.min(2048, Math.round(options.height ?? 240)));
  const bg = options.background ?? [245, 245, 244];
  const base = options.color ?? [37, 99, 235];
  const p = mesh.positions;
  const idx = mesh.indices;
  const n = mesh.triangleCount;
  const view = fitView(p, W, H);
  const image = new PreviewImage(W, H, bg);
  for (let t = 0; t < n; t++) {
    const a = idx ? idx[3 * t] * 3 : 9 * t;
    const b = idx ? idx[3 * t + 1] * 3 : 9 * t + 3;
    const c = idx ? idx[3 * t + 2] * 3 : 9 * t + 6;
    drawTriangle(image, view, base, p, a, b, c);
  }
  return { png: encodePng(image.rgb, W, H), pixelsTested: image.pixelsTested, degradedTriangles: image.degradedTriangles };
}

/** The camera and the light, and the scale and offsets that fit the model's projection into the image. */
interface View {
  /** viewing direction */
  f: number[];
  /** screen right (no z part) */
  rx: number;
  ry: number;
  /** screen up */
  ux: number;
  uy: number;
  uz: number;
  /** light direction */
  lx: number;
  ly: number;
  lz: number;
  scale: number;
  offS: number;
  offT: number;
}

/** A camera looking from (+1, -1, +0.8) towards the model: an isometric-like three-quarter view, fitted to W x H. */
function fitView(p: Float32Array, W: number, H: number): View {
  const fx = -1,
    fy = 1,
    fz = -0.8;
  const fl = Math.hypot(fx, fy, fz);
  const f = [fx / fl, fy / fl, fz / fl];
  // right = f x up(0,0,1)
  let rx = f[1],
    ry = -f[0];
  const rl = Math.hypot(rx, ry);
  rx /= rl;
  ry /= rl;
  // screen up = right x f
  const ux = ry * f[2],
    uy = -rx * f[2],
    uz = rx * f[1] - ry * f[0];
  // light from the upper left behind the viewer
  const lx0 = -0.3,
    ly0 = -0.5,
    lz0 = 0.8;
  const ll = Math.hypot(lx0, ly0, lz0);

  // fit: project all corners once to find the screen extent
  let minS = Infinity,
    maxS = -Infinity,
    minT = Infinity,
    maxT = -Infinity;
  for (let o = 0; o < p.length; o += 3) {
    const s = p[o] * rx + p[o + 1] * ry;
    const t = p[o] * ux + p[o + 1] * uy + p[o + 2] * uz;
    if (s < minS) minS = s;
    if (s > maxS) maxS = s;
    if (t < minT) minT = t;
    if (t > maxT) maxT = t;
  }
  const margin = 0.08;
  const spanS = Math.max(1e-9, maxS - minS);
  const spanT = Math.max(1e-9, maxT - minT);
  const scale = Math.min((W * (1 - 2 * margin)) / spanS, (H * (1 - 2 * margin)) / spanT);
  const offS = (W - spanS * scale) / 2 - minS * scale;
  const offT = (H - spanT * scale) / 2 + maxT * scale;
  return { f, rx, ry, ux, uy, uz, lx: lx0 / ll, ly: ly0 / ll, lz: lz0 / ll, scale, offS, offT };
}

/** Colour and depth buffers, and the pixel-test budget the triangles spend. */
class PreviewImage {
  readonly rgb: Uint8Array;
  readonly depth: Float32Array;
  budget: number;
  pixelsTested = 0;
  degradedTriangles = 0;
  constructor(
    readonly W: number,
    readonly H: number,
    bg: number[],
  ) {
    this.rgb = new Uint8Array(W * H * 3);
    for (let i = 0; i < W * H; i++) {
      this.rgb[3 * i] = bg[0];
      this.rgb[3 * i + 1] = bg[1];
      this.rgb[3 * i + 2] = bg[2];
    }
    this.depth = new Float32Array(W * H).fill(Infinity);
    this.budget = PREVIEW_PIXEL_BUDGET_PER_PIXEL * W * H;
  }

  /** Paints pixel o when d is nearer than what it shows. */
  plot(o: number, d: number, cr: number, cg: number, cb: number): void {
    if (d < this.depth[o]) {
      this.depth[o] = d;
      this.rgb[3 * o] = cr;
      this.rgb[3 * o + 1] = cg;
      this.rgb[3 * o + 2] = cb;
    }
  }
}

/** Fills one triangle (corners at offsets a, b, c of p) with flat shading, or marks its centre once the budget is spent. */
function drawTriangle(image: PreviewImage, view: View, base: number[], p: Float32Array, a: number, b: number, c: number): void {
  const { f, rx, ry, ux, uy, uz, lx, ly, lz, scale, offS, offT } = view;
  const { W, H } = image;
  const ax = p[a],
    ay = p[a + 1],
    az = p[a + 2];
  const bx = p[b],
    by = p[b + 1],
    bz = p[b + 2];
  const cx = p[c],
    cy = p[c + 1],
    cz = p[c + 2];
  const x0 = (ax * rx + ay * ry) * scale + offS;
  const y0 = offT - (ax * ux + ay * uy + az * uz) * scale;
  const x1 = (bx * rx + by * ry) * scale + offS;
  const y1 = offT - (bx * ux + by * uy + bz * uz) * scale;
  const x2 = (cx * rx + cy * ry) * scale + offS;
  const y2 = offT - (cx * ux + cy * uy + cz * uz) * scale;
  const d0 = ax * f[0] + ay * f[1] + az * f[2];
  const d1 = bx * f[0] + by * f[1] + bz * f[2];
  const d2 = cx * f[0] + cy * f[1] + cz * f[2];
  const areaS = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0);
  if (areaS === 0) return;
  const minX = Math.max(0, Math.floor(Math.min(x0, x1, x2)));
  const maxX = Math.min(W - 1, Math.ceil(Math.max(x0, x1, x2)));
  const minY = Math.max(0, Math.floor(Math.min(y0, y1, y2)));
  const maxY = Math.min(H - 1, Math.ceil(Math.max(y0, y1, y2)));
  if (minX > maxX || minY > maxY) return;
  // flat shading, two-sided because not every file has consistent winding
  const ex = bx - ax,
    ey = by - ay,
    ez = bz - az;
  const gx = cx - ax,
    gy = cy - ay,
    gz = cz - az;
  const nx = ey * gz - ez * gy,
    ny = ez * gx - ex * gz,
    nz = ex * gy - ey * gx;
  const nl = Math.hypot(nx, ny, nz) || 1;
  const shade = 0.35 + 0.65 * Math.abs((nx * lx + ny * ly + nz * lz) / nl);
  const cr = Math.min(255, base[0] * shade + 30 * shade);
  const cg = Math.min(255, base[1] * shade + 30 * shade);
  const cb = Math.min(255, base[2] * shade + 30 * shade);
  const inv = 1 / areaS;
  const boxPixels = (maxX - minX + 1) * (maxY - minY + 1);
  const small = maxX - minX <= 1 && maxY - minY <= 1;
  if (!small && boxPixels > image.budget) image.degradedTriangles++;
  // sub-pixel triangles still mark the pixel under their centre so dense meshes are not lost
  if (small || boxPixels > image.budget) {
    const px = Math.min(W - 1, Math.max(0, Math.round((x0 + x1 + x2) / 3 - 0.5)));
    const py = Math.min(H - 1, Math.max(0, Math.round((y0 + y1 + y2) / 3 - 0.5)));
    image.plot(py * W + px, (d0 + d1 + d2) / 3, cr, cg, cb);
    return;
  }
  image.budget -= boxPixels;
  image.pixelsTested += boxPixels;
  for (let py = minY; py <= maxY; py++) {
    const sy = py + 0.5;
    for (let px = minX; px <= maxX; px++) {
      const sx = px + 0.5;
      const w0 = ((x1 - sx) * (y2 - sy) - (x2 - sx) * (y1 - sy)) * inv;
      const w1 = ((x2 - sx) * (y0 - sy) - (x0 - sx) * (y2 - sy)) * inv;
      const w2 = 1 - w0 - w1;
      if (w0 < 0 || w1 < 0 || w2 < 0) continue;
      image.plot(py * W + px, w0 * d0 + w1 * d1 + w2 * d2, cr, cg, cb);
    }
  }
}
