import { describe, expect, it } from "vitest";
import { computeBasicMetrics } from "./metrics";
import { computeTopology, countEdges } from "./topology";
import { weldVertices } from "./weld";
import { box, cone, cup, cylinder, merge, sphere, torus, MeshBuilder } from "./generate";
import type { Mesh } from "./types";

/** Same triangles, stored as a soup, like an STL file delivers them. */
function toSoup(mesh: Mesh): Mesh {
  const idx = mesh.indices as Uint32Array;
  const out = new Float32Array(idx.length * 3);
  for (let k = 0; k < idx.length; k++) out.set(mesh.positions.subarray(idx[k] * 3, idx[k] * 3 + 3), 3 * k);
  return { ...mesh, positions: out, indices: null };
}

function dropTriangle(mesh: Mesh, t: number): Mesh {
  const idx = Array.from(mesh.indices as Uint32Array);
  idx.splice(3 * t, 3);
  return { ...mesh, indices: new Uint32Array(idx), triangleCount: idx.length / 3 };
}

const polygonArea = (n: number, r: number): number => 0.5 * n * r * r * Math.sin((2 * Math.PI) / n);

describe("computeBasicMetrics", () => {
  const cases: Array<{ name: string; mesh: Mesh; volume: number; area: number; bbox: [number, number, number]; tol: number }> = [
    { name: "10x20x30 box", mesh: box(10, 20, 30), volume: 6000, area: 2200, bbox: [10, 20, 30], tol: 1e-6 },
    { name: "150 mm cube", mesh: box(150, 150, 150), volume: 3_375_000, area: 135_000, bbox: [150, 150, 150], tol: 1e-6 },
    {
      name: "5 mm cube far from origin",
      mesh: box(5, 5, 5, 1000, -2000, 500),
      volume: 125,
      area: 150,
      bbox: [5, 5, 5],
      tol: 1e-3,
    },
    {
      name: "64-gon prism r10 h5",
      mesh: cylinder(10, 5, 64),
      volume: polygonArea(64, 10) * 5,
      area: 2 * polygonArea(64, 10) + 64 * 2 * 10 * Math.sin(Math.PI / 64) * 5,
      bbox: [20, 20, 5],
      tol: 1e-4,
    },
    {
      name: "sphere r20 (fine)",
      mesh: sphere(20, 128, 256),
      volume: (4 / 3) * Math.PI * 8000,
      area: 4 * Math.PI * 400,
      bbox: [40, 40, 40],
      tol: 2e-3,
    },
    {
      name: "torus R30 r5",
      mesh: torus(30, 5, 256, 128),
      volume: 2 * Math.PI ** 2 * 30 * 25,
      area: 4 * Math.PI ** 2 * 30 * 5,
      bbox: [70, 70, 10],
      tol: 2e-3,
    },
    {
      name: "square tube",
      mesh: cup(10, 2, 10, 0, 4),
      volume: (400 - 256) * 10,
      area: 2 * (400 - 256) + 4 * 20 * 10 + 4 * 16 * 10,
      bbox: [20, 20, 10],
      tol: 1e-5,
    },
  ];
  it.each(cases)("$name: volume, area and box", ({ mesh, volume, area, bbox, tol }) => {
    for (const m of [mesh, toSoup(mesh)]) {
      const r = computeBasicMetrics(m);
      expect(Math.abs(r.volume - volume) / volume).toBeLessThan(tol);
      expect(Math.abs(r.surfaceArea - area) / area).toBeLessThan(tol);
      expect(r.boundingBox.x).toBeCloseTo(bbox[0], 3);
      expect(r.boundingBox.z).toBeCloseTo(bbox[2], 3);
      expect(r.triangles).toBe(m.triangleCount);
    }
  });

  it("reports a positive volume for an inside-out mesh and a negative signed volume", () => {
    const r = computeBasicMetrics(box(10, 10, 10, 0, 0, 0, true));
    expect(r.volume).toBeCloseTo(1000, 6);
    expect(r.signedVolume).toBeCloseTo(-1000, 6);
  });

  it("ignores unused OBJ-style vertices for the bounding box", () => {
    const b = new MeshBuilder().append(box(10, 10, 10));
    b.vertex(500, 500, 500);
    expect(computeBasicMetrics(b.build()).boundingBox).toEqual({ x: 10, y: 10, z: 10 });
  });
});

describe("computeTopology", () => {
  const cases: Array<{ name: string; mesh: Mesh; bodies: number; closed: boolean; openEdges: number; nonManifold?: number }> = [
    { name: "cube", mesh: box(10, 10, 10), bodies: 1, closed: true, openEdges: 0 },
    // removing one triangle opens its three edges
    { name: "cube missing a triangle", mesh: dropTriangle(box(10, 10, 10), 3), bodies: 1, closed: false, openEdges: 3 },
    // removing a whole face (two triangles) leaves the square's four edges open; the diagonal goes away
    {
      name: "cube missing a face",
      mesh: dropTriangle(dropTriangle(box(10, 10, 10), 2), 2),
      bodies: 1,
      closed: false,
      openEdges: 4,
    },
    { name: "sphere", mesh: sphere(10, 16, 32), bodies: 1, closed: true, openEdges: 0 },
    { name: "torus", mesh: torus(10, 3, 32, 16), bodies: 1, closed: true, openEdges: 0 },
    { name: "cone", mesh: cone(10, 10, 24), bodies: 1, closed: true, openEdges: 0 },
    { name: "open-ended tube", mesh: cup(10, 1, 10, 0, 32), bodies: 1, closed: true, openEdges: 0 },
    {
      name: "three separate boxes",
      mesh: merge({ mesh: box(5, 5, 5) }, { mesh: box(5, 5, 5), at: [10, 0, 0] }, { mesh: box(5, 5, 5), at: [20, 0, 0] }),
      bodies: 3,
      closed: true,
      openEdges: 0,
    },
    {
      name: "hollow box (outer shell and inner cavity)",
      mesh: merge({ mesh: box(10, 10, 10) }, { mesh: box(6, 6, 6, 2, 2, 2, true) }),
      bodies: 2,
      closed: true,
      openEdges: 0,
    },
    {
      name: "two cubes sharing an edge",
      mesh: merge({ mesh: box(5, 5, 5) }, { mesh: box(5, 5, 5), at: [5, 5, 0] }),
      bodies: 1,
      closed: false,
      openEdges: 0,
      nonManifold: 1,
    },
  ];
  it.each(cases)("$name", ({ mesh, bodies, closed, openEdges, nonManifold }) => {
    for (const m of [mesh, toSoup(mesh)]) {
      const t = computeTopology(m);
      expect(t.bodies).toBe(bodies);
      expect(t.closed).toBe(closed);
      expect(t.openEdges).toBe(openEdges);
      if (nonManifold !== undefined) expect(t.nonManifoldEdges).toBe(nonManifold);
    }
  });

  it("welds -0 and +0 as one vertex", () => {
    const soup = toSoup(box(1, 1, 1));
    for (let k = 0; k < soup.positions.length; k++) if (soup.positions[k] === 0 && k % 2 === 0) soup.positions[k] = -0;
    const t = computeTopology(soup);
    expect(t.vertexCount).toBe(8);
    expect(t.closed).toBe(true);
  });

  it("keeps every welded position exact while the weld table grows from a small guess", () => {
    const soup = toSoup(sphere(10, 40, 80));
    const count = soup.positions.length / 3;
    for (const expected of [1, 16, 17, 64, 1000, count]) {
      const w = weldVertices(soup.positions, count, expected);
      expect(w.vertexCount).toBe(39 * 80 + 2);
      // one assertion over all corners (a million expect calls took longer than the timeout on a loaded machine)
      const wrong: string[] = [];
      for (let v = 0; v < count; v++) {
        for (let k = 0; k < 3; k++) {
          const got = w.positions[3 * w.remap[v] + k];
          if (!Object.is(got, soup.positions[3 * v + k] + 0)) wrong.push(`${v}.${k}: ${got}`);
        }
      }
      expect(wrong).toEqual([]);
    }
  });

  it("numbers vertices in order of first use, as a plain map does, when corners repeat in any order", () => {
    // a fixed pseudo-random sequence: recent corners repeat often (they move within the weld table), old ones now and then
    let seed = 12345;
    const rand = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const points = Array.from({ length: 4000 }, (_, i) => [rand(50) - 25, rand(50) - 25, i % 7 === 0 ? -0 : rand(50) / 4]);
    const count = 60_000;
    const positions = new Float32Array(count * 3);
    for (let v = 0; v < count; v++) {
      const p = points[rand(4) === 0 ? rand(points.length) : Math.min(points.length - 1, (v >> 4) + rand(8))];
      positions.set(p, 3 * v);
    }
    const ids = new Map<string, number>();
    const expected = Array.from({ length: count }, (_, v) => {
      const key = Array.from(positions.subarray(3 * v, 3 * v + 3), (c) => c + 0).join(",");
      if (!ids.has(key)) ids.set(key, ids.size);
      return ids.get(key);
    });
    for (const guess of [1, count]) {
      const w = weldVertices(positions, count, guess);
      expect(w.vertexCount).toBe(ids.size);
      expect(Array.from(w.remap)).toEqual(expected);
    }
  });

  it("counts open, shared and non-manifold edges and ignores collapsed edges", () => {
    // two triangles sharing edge 1-2, a third on the same edge, and one collapsed triangle 3-3-4
    const r = countEdges(new Uint32Array([0, 1, 2, 2, 1, 3, 1, 2, 4, 3, 3, 4]), 5);
    expect(r).toEqual({ edges: 8, openEdges: 6, nonManifoldEdges: 1 });
  });
});
