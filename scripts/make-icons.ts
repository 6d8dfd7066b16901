// Draws the app icons the web app manifest lists (192 and 512 px, plain and maskable) as PNG
// files in public/icons: the brand-blue tile with a white print cube. No image library needed:
// a tiny PNG writer (zlib from Node) and 4x4 supersampling for smooth edges.
// Run: npx tsx scripts/make-icons.ts
import { writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";

const BRAND = [0x1f, 0x57, 0xd0] as const;
const WHITE = [0xff, 0xff, 0xff] as const;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function png(size: number, pixel: (x: number, y: number) => [number, number, number, number]): Buffer {
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    for (let x = 0; x < size; x++) {
      const [r, g, b, a] = pixel(x, y);
      const at = y * (size * 4 + 1) + 1 + x * 4;
      raw[at] = r;
      raw[at + 1] = g;
      raw[at + 2] = b;
      raw[at + 3] = a;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A pointy-top hexagon (the cube's outline) with its three inner edges, in unit coordinates. */
function inCube(u: number, v: number, radius: number, stroke: number): boolean {
  const x = Math.abs(u);
  const y = Math.abs(v);
  const inside = (r: number) => x <= (r * Math.sqrt(3)) / 2 && y <= r - x / Math.sqrt(3);
  if (!inside(radius)) return false;
  if (!inside(radius - stroke)) return true;
  // the three edges meeting in the centre (the top face shows): down, and up-left / up-right
  if (v >= 0 && x <= stroke / 2) return true;
  const y0 = Math.abs(v);
  const alongUp = v < 0 ? Math.abs(y0 - x / Math.sqrt(3)) * (Math.sqrt(3) / 2) : Infinity;
  return alongUp <= stroke / 2;
}

function icon(size: number, maskable: boolean): Buffer {
  // a maskable icon fills the square; its drawing stays in the central safe zone (80%)
  const corner = maskable ? 0 : 0.22;
  const radius = maskable ? 0.4 : 0.56;
  const samples = 4;
  return png(size, (px, py) => {
    let tile = 0;
    let cube = 0;
    for (let sy = 0; sy < samples; sy++) {
      for (let sx = 0; sx < samples; sx++) {
        const u = ((px + (sx + 0.5) / samples) / size) * 2 - 1;
        const v = ((py + (sy + 0.5) / samples) / size) * 2 - 1;
        const dx = Math.max(Math.abs(u) - (1 - corner), 0);
        const dy = Math.max(Math.abs(v) - (1 - corner), 0);
        if (corner === 0 || dx * dx + dy * dy <= corner * corner) {
          tile++;
          if (inCube(u, v, radius, radius * 0.2)) cube++;
        }
      }
    }
    const n = samples * samples;
    if (tile === 0) return [0, 0, 0, 0];
    const t = cube / tile;
    const mix = (i: number) => Math.round(BRAND[i] * (1 - t) + WHITE[i] * t);
    return [mix(0), mix(1), mix(2), Math.round((tile / n) * 255)];
  });
}

for (const size of [192, 512]) {
  writeFileSync(`public/icons/icon-${size}.png`, icon(size, false));
  writeFileSync(`public/icons/icon-maskable-${size}.png`, icon(size, true));
}
console.log("Wrote public/icons/icon-{192,512}.png and icon-maskable-{192,512}.png");
