import { describe, expect, it } from "vitest";
import { unzlibSync } from "fflate";
import * as zlib from "node:zlib";
import { crc32, renderPreviewPng } from "./preview";
import { box, gridSlab, sphere, torus } from "./generate";
import type { Mesh } from "./types";

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Minimal PNG reader for the files we write: RGB, 8 bit, filter 0, one IDAT. */
function decode(png: Uint8Array): { width: number; height: number; rgb: Uint8Array } {
  const dv = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let o = 8;
  let width = 0;
  let height = 0;
  const idat: Uint8Array[] = [];
  while (o < png.length) {
    const len = dv.getUint32(o);
    const type = new TextDecoder().decode(png.subarray(o + 4, o + 8));
    const data = png.subarray(o + 8, o + 8 + len);
    expect(dv.getUint32(o + 8 + len)).toBe(crc32(png, o + 4, o + 8 + len));
    if (type === "IHDR") {
      width = dv.getUint32(o + 8);
      height = dv.getUint32(o + 12);
    } else if (type === "IDAT") idat.push(data);
    o += 12 + len;
  }
  const raw = unzlibSync(idat[0]);
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    expect(raw[y * (1 + width * 3)]).toBe(0);
    rgb.set(raw.subarray(y * (1 + width * 3) + 1, (y + 1) * (1 + width * 3)), y * width * 3);
  }
  return { width, height, rgb };
}

describe("renderPreviewPng", () => {
  const cases: Array<{ name: string; mesh: Mesh }> = [
    { name: "cube", mesh: box(20, 20, 20) },
    { name: "sphere", mesh: sphere(10, 16, 32) },
    { name: "flat plate", mesh: box(100, 60, 1) },
    {
      name: "torus far from the origin",
      mesh: { ...torus(10, 3, 32, 16), positions: torus(10, 3, 32, 16).positions.map((v) => v + 5000) },
    },
  ];
  it.each(cases)("draws a $name inside a 320x240 PNG", ({ mesh }) => {
    const png = renderPreviewPng(mesh, { width: 320, height: 240 });
    expect(Array.from(png.subarray(0, 8))).toEqual(SIGNATURE);
    const { width, height, rgb } = decode(png);
    expect([width, height]).toEqual([320, 240]);
    let drawn = 0;
    let shades = new Set<number>();
    for (let i = 0; i < width * height; i++) {
      const r = rgb[3 * i],
        g = rgb[3 * i + 1],
        b = rgb[3 * i + 2];
      if (r !== 245 || g !== 245 || b !== 244) {
        drawn++;
        shades.add((r << 16) | (g << 8) | b);
      }
    }
    // the model fills a good part of the frame, and flat shading gives its faces different tones
    expect(drawn).toBeGreaterThan(width * height * 0.05);
    expect(shades.size).toBeGreaterThan(1);
    shades = new Set();
  });

  it("keeps the corners as background (model fitted with a margin)", () => {
    const { rgb } = decode(renderPreviewPng(box(10, 10, 10), { width: 64, height: 48 }));
    expect(Array.from(rgb.subarray(0, 3))).toEqual([245, 245, 244]);
  });

  it("renders a 200k-triangle mesh quickly", () => {
    const mesh = gridSlab(220);
    const t0 = performance.now();
    const png = renderPreviewPng(mesh);
    expect(performance.now() - t0).toBeLessThan(1500);
    expect(png.length).toBeGreaterThan(100);
  });

  it("computes the standard CRC-32", () => {
    const data = new TextEncoder().encode("123456789");
    expect(crc32(data)).toBe(0xcbf43926);
    const z = zlib as unknown as { crc32?: (d: Uint8Array) => number };
    if (z.crc32) expect(crc32(data)).toBe(z.crc32(data));
  });
});
