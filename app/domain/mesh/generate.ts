// Procedural closed meshes and file writers, for tests, the benchmark, the calibration script and the pricing page's keychain example.

import { zipSync, strToU8 } from "fflate";
import type { Mesh } from "./types";

/** Indexed mesh under construction; all generators wind triangles counter-clockwise seen from outside. */
export class MeshBuilder {
  readonly pos: number[] = [];
  readonly tri: number[] = [];
  vertex(x: number, y: number, z: number): number {
    this.pos.push(x, y, z);
    return this.pos.length / 3 - 1;
  }
  face(a: number, b: number, c: number): void {
    this.tri.push(a, b, c);
  }
  quad(a: number, b: number, c: number, d: number): void {
    this.tri.push(a, b, c, a, c, d);
  }
  append(other: Mesh, dx = 0, dy = 0, dz = 0): this {
    const base = this.pos.length / 3;
    const p = other.positions;
    for (let k = 0; k < p.length; k += 3) this.pos.push(p[k] + dx, p[k + 1] + dy, p[k + 2] + dz);
    const idx = other.indices;
    if (!idx) throw new Error("append needs an indexed mesh");
    for (let k = 0; k < idx.length; k++) this.tri.push(idx[k] + base);
    return this;
  }
  build(): Mesh {
    return {
      positions: new Float32Array(this.pos),
      indices: new Uint32Array(this.tri),
      triangleCount: this.tri.length / 3,
      format: "stl",
      numberOfColors: 1,
    };
  }
}

export function box(sx: number, sy: number, sz: number, x = 0, y = 0, z = 0, inverted = false): Mesh {
  const b = new MeshBuilder();
  const v = [
    [0, 0, 0],
    [sx, 0, 0],
    [sx, sy, 0],
    [0, sy, 0],
    [0, 0, sz],
    [sx, 0, sz],
    [sx, sy, sz],
    [0, sy, sz],
  ].map(([a, c, d]) => b.vertex(a + x, c + y, d + z));
  const quads = [
    [0, 3, 2, 1],
    [4, 5, 6, 7],
    [0, 1, 5, 4],
    [1, 2, 6, 5],
    [2, 3, 7, 6],
    [3, 0, 4, 7],
  ];
  for (const [a, c, d, e] of quads) {
    if (inverted) b.quad(v[a], v[e], v[d], v[c]);
    else b.quad(v[a], v[c], v[d], v[e]);
  }
  return b.build();
}

export function cylinder(radius: number, height: number, segments = 64): Mesh {
  const b = new MeshBuilder();
  const c0 = b.vertex(0, 0, 0);
  const c1 = b.vertex(0, 0, height);
  const lo: number[] = [];
  const hi: number[] = [];
  for (let i = 0; i < segments; i++) {
    const a = (2 * Math.PI * i) / segments;
    lo.push(b.vertex(radius * Math.cos(a), radius * Math.sin(a), 0));
    hi.push(b.vertex(radius * Math.cos(a), radius * Math.sin(a), height));
  }
  for (let i = 0; i < segments; i++) {
    const j = (i + 1) % segments;
    b.face(c0, lo[j], lo[i]);
    b.face(c1, hi[i], hi[j]);
    b.quad(lo[i], lo[j], hi[j], hi[i]);
  }
  return b.build();
}

export function cone(radius: number, height: number, segments = 64): Mesh {
  const b = new MeshBuilder();
  const c0 = b.vertex(0, 0, 0);
  const apex = b.vertex(0, 0, height);
  const ring: number[] = [];
  for (let i = 0; i < segments; i++) {
    const a = (2 * Math.PI * i) / segments;
    ring.push(b.vertex(radius * Math.cos(a), radius * Math.sin(a), 0));
  }
  for (let i = 0; i < segments; i++) {
    const j = (i + 1) % segments;
    b.face(c0, ring[j], ring[i]);
    b.face(ring[i], ring[j], apex);
  }
  return b.build();
}

/** UV sphere centred at (0,0,radius) so it rests on the bed; triangles = 2 * segments * (rings - 1). */
export function sphere(radius: number, rings = 32, segments = 64, inverted = false, cz = radius): Mesh {
  const b = new MeshBuilder();
  const south = b.vertex(0, 0, cz - radius);
  const grid: number[][] = [];
  for (let r = 1; r < rings; r++) {
    const phi = Math.PI * (r / rings - 0.5);
    const row: number[] = [];
    for (let s = 0; s < segments; s++) {
      const th = (2 * Math.PI * s) / segments;
      row.push(
        b.vertex(radius * Math.cos(phi) * Math.cos(th), radius * Math.cos(phi) * Math.sin(th), cz + radius * Math.sin(phi)),
      );
    }
    grid.push(row);
  }
  const north = b.vertex(0, 0, cz + radius);
  const face = (a: number, c: number, d: number): void => (inverted ? b.face(a, d, c) : b.face(a, c, d));
  for (let s = 0; s < segments; s++) {
    const t = (s + 1) % segments;
    face(south, grid[0][t], grid[0][s]);
    face(north, grid[rings - 2][s], grid[rings - 2][t]);
    for (let r = 0; r < rings - 2; r++) {
      face(grid[r][s], grid[r][t], grid[r + 1][t]);
      face(grid[r][s], grid[r + 1][t], grid[r + 1][s]);
    }
  }
  return b.build();
}

export function torus(major: number, minor: number, segU = 64, segV = 32): Mesh {
  const b = new MeshBuilder();
  const id = (u: number, v: number): number => (u % segU) * segV + (v % segV);
  for (let u = 0; u < segU; u++) {
    const a = (2 * Math.PI * u) / segU;
    for (let v = 0; v < segV; v++) {
      const c = (2 * Math.PI * v) / segV;
      const r = major + minor * Math.cos(c);
      b.vertex(r * Math.cos(a), r * Math.sin(a), minor + minor * Math.sin(c));
    }
  }
  for (let u = 0; u < segU; u++) {
    for (let v = 0; v < segV; v++) b.quad(id(u, v), id(u + 1, v), id(u + 1, v + 1), id(u, v + 1));
  }
  return b.build();
}

/**
 * A cup or tube: an outer and an inner ring (same angles) extruded to `height`, with a floor of
 * `floor` mm (0 = open tube). `corners` 4 gives a square cup, many gives a round one.
 */
export function cup(outerRadius: number, wall: number, height: number, floor: number, corners = 64): Mesh {
  const b = new MeshBuilder();
  const rot = corners === 4 ? Math.PI / 4 : 0;
  const scale = corners === 4 ? Math.SQRT2 : 1;
  const ring = (r: number, z: number): number[] => {
    const out: number[] = [];
    for (let i = 0; i < corners; i++) {
      const a = rot + (2 * Math.PI * i) / corners;
      out.push(b.vertex(r * scale * Math.cos(a), r * scale * Math.sin(a), z));
    }
    return out;
  };
  const inner = outerRadius - wall;
  const o0 = ring(outerRadius, 0);
  const oH = ring(outerRadius, height);
  const iH = ring(inner, height);
  const iF = ring(inner, floor);
  const center0 = floor > 0 ? b.vertex(0, 0, 0) : -1;
  const centerF = floor > 0 ? b.vertex(0, 0, floor) : -1;
  for (let i = 0; i < corners; i++) {
    const j = (i + 1) % corners;
    b.quad(o0[i], o0[j], oH[j], oH[i]); // outer wall
    b.quad(oH[i], oH[j], iH[j], iH[i]); // top rim
    b.quad(iH[i], iH[j], iF[j], iF[i]); // inner wall, facing the hole
    if (floor > 0) {
      b.face(center0, o0[j], o0[i]); // bottom
      b.face(centerF, iF[i], iF[j]); // inner floor, facing up
    } else {
      b.quad(iF[i], iF[j], o0[j], o0[i]); // bottom rim of an open tube
    }
  }
  return b.build();
}

export function merge(...parts: Array<{ mesh: Mesh; at?: [number, number, number] }>): Mesh {
  const b = new MeshBuilder();
  for (const { mesh, at } of parts) b.append(mesh, at?.[0] ?? 0, at?.[1] ?? 0, at?.[2] ?? 0);
  return b.build();
}

/** A flat grid surface closed into a slab, for benchmarks that need an exact triangle count: 2*(n*n) + 2*... */
export function gridSlab(cells: number, size = 100, thickness = 5): Mesh {
  const b = new MeshBuilder();
  const n = cells;
  const top: number[] = [];
  const bottom: number[] = [];
  for (let j = 0; j <= n; j++) {
    for (let i = 0; i <= n; i++) {
      const x = (i / n) * size;
      const y = (j / n) * size;
      // a gentle wave keeps the top from being flat, so slicing work is realistic
      top.push(b.vertex(x, y, thickness + Math.sin(x / 7) * Math.cos(y / 9)));
    }
  }
  for (let j = 0; j <= n; j++) for (let i = 0; i <= n; i++) bottom.push(b.vertex((i / n) * size, (j / n) * size, 0));
  const at = (arr: number[], i: number, j: number): number => arr[j * (n + 1) + i];
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      b.quad(at(top, i, j), at(top, i + 1, j), at(top, i + 1, j + 1), at(top, i, j + 1));
      b.quad(at(bottom, i, j), at(bottom, i, j + 1), at(bottom, i + 1, j + 1), at(bottom, i + 1, j));
    }
  }
  for (let i = 0; i < n; i++) {
    b.quad(at(bottom, i, 0), at(bottom, i + 1, 0), at(top, i + 1, 0), at(top, i, 0));
    b.quad(at(bottom, i + 1, n), at(bottom, i, n), at(top, i, n), at(top, i + 1, n));
    b.quad(at(bottom, 0, i + 1), at(bottom, 0, i), at(top, 0, i), at(top, 0, i + 1));
    b.quad(at(bottom, n, i), at(bottom, n, i + 1), at(top, n, i + 1), at(top, n, i));
  }
  return b.build();
}

// ---------- writers ----------

function corner(mesh: Mesh, t: number, k: number): number {
  return mesh.indices ? mesh.indices[3 * t + k] * 3 : 9 * t + 3 * k;
}

export function toBinaryStl(mesh: Mesh, header = "binary STL written by printnear"): Uint8Array {
  const n = mesh.triangleCount;
  const out = new Uint8Array(84 + 50 * n);
  for (let k = 0; k < Math.min(80, header.length); k++) out[k] = header.charCodeAt(k) & 0x7f;
  const dv = new DataView(out.buffer);
  dv.setUint32(80, n, true);
  const p = mesh.positions;
  for (let t = 0; t < n; t++) {
    const o = 84 + 50 * t;
    // real unit normals: PrusaSlicer reads a file as ASCII when bytes 80-207 are all below 128
    const a = corner(mesh, t, 0),
      b = corner(mesh, t, 1),
      c = corner(mesh, t, 2);
    const ux = p[b] - p[a],
      uy = p[b + 1] - p[a + 1],
      uz = p[b + 2] - p[a + 2];
    const vx = p[c] - p[a],
      vy = p[c + 1] - p[a + 1],
      vz = p[c + 2] - p[a + 2];
    const nx = uy * vz - uz * vy,
      ny = uz * vx - ux * vz,
      nz = ux * vy - uy * vx;
    const nl = Math.hypot(nx, ny, nz) || 1;
    dv.setFloat32(o, nx / nl, true);
    dv.setFloat32(o + 4, ny / nl, true);
    dv.setFloat32(o + 8, nz / nl, true);
    for (let k = 0; k < 3; k++) {
      const c = corner(mesh, t, k);
      dv.setFloat32(o + 12 + 12 * k, p[c], true);
      dv.setFloat32(o + 16 + 12 * k, p[c + 1], true);
      dv.setFloat32(o + 20 + 12 * k, p[c + 2], true);
    }
  }
  return out;
}

function fmt(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toPrecision(9);
}

export function toAsciiStl(mesh: Mesh, name = "model"): Uint8Array {
  const p = mesh.positions;
  const lines: string[] = [`solid ${name}`];
  for (let t = 0; t < mesh.triangleCount; t++) {
    lines.push("  facet normal 0 0 0", "    outer loop");
    for (let k = 0; k < 3; k++) {
      const c = corner(mesh, t, k);
      lines.push(`      vertex ${fmt(p[c])} ${fmt(p[c + 1])} ${fmt(p[c + 2])}`);
    }
    lines.push("    endloop", "  endfacet");
  }
  lines.push(`endsolid ${name}`, "");
  return strToU8(lines.join("\n"));
}

export function toObj(mesh: Mesh): Uint8Array {
  if (!mesh.indices) throw new Error("toObj needs an indexed mesh");
  const p = mesh.positions;
  const parts: string[] = ["# written by printnear"];
  for (let k = 0; k < p.length; k += 3) parts.push(`v ${fmt(p[k])} ${fmt(p[k + 1])} ${fmt(p[k + 2])}`);
  const idx = mesh.indices;
  for (let k = 0; k < idx.length; k += 3) parts.push(`f ${idx[k] + 1} ${idx[k + 1] + 1} ${idx[k + 2] + 1}`);
  parts.push("");
  return strToU8(parts.join("\n"));
}

export interface ThreeMfObject {
  mesh: Mesh;
  /** 12-number 3MF transform of the build item */
  transform?: string;
}

/** Model XML of a 3MF package: one object and one build item per entry. */
export function threeMfModelXml(objects: ThreeMfObject[], unit = "millimeter"): string {
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<model unit="${unit}" xml:lang="en-US" xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02">`,
    "<resources>",
  ];
  objects.forEach(({ mesh }, i) => {
    if (!mesh.indices) throw new Error("3MF writer needs an indexed mesh");
    out.push(`<object id="${i + 1}" type="model"><mesh><vertices>`);
    const p = mesh.positions;
    for (let k = 0; k < p.length; k += 3) out.push(`<vertex x="${fmt(p[k])}" y="${fmt(p[k + 1])}" z="${fmt(p[k + 2])}"/>`);
    out.push("</vertices><triangles>");
    const idx = mesh.indices;
    for (let k = 0; k < idx.length; k += 3) out.push(`<triangle v1="${idx[k]}" v2="${idx[k + 1]}" v3="${idx[k + 2]}"/>`);
    out.push("</triangles></mesh></object>");
  });
  out.push("</resources>", "<build>");
  objects.forEach(({ transform }, i) => out.push(`<item objectid="${i + 1}"${transform ? ` transform="${transform}"` : ""}/>`));
  out.push("</build>", "</model>");
  return out.join("\n");
}

export const RELS_XML =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Target="/3D/3dmodel.model" Id="rel0" Type="http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel"/></Relationships>';

export const CONTENT_TYPES_XML =
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="model" ContentType="application/vnd.ms-package.3dmanufacturing-3dmodel+xml"/></Types>';

export function to3mf(objects: ThreeMfObject[] | Mesh, unit = "millimeter", modelXml?: string): Uint8Array {
  const list = Array.isArray(objects) ? objects : [{ mesh: objects }];
  return zipSync({
    "[Content_Types].xml": strToU8(CONTENT_TYPES_XML),
    "_rels/.rels": strToU8(RELS_XML),
    "3D/3dmodel.model": strToU8(modelXml ?? threeMfModelXml(list, unit)),
  });
}
