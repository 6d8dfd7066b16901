import { readFileSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
import { zipSync } from "fflate";
import { joinAdjacent } from "./inflate";
import { parse3mf } from "./threemf";
import { RELS_XML } from "./generate";
import { cubeObjectXml, damage, enc, expectMeshError, lieAboutSize, modelXml, package3mf } from "./test-helpers";

const fixture = (name: string): Uint8Array =>
  new Uint8Array(readFileSync(new URL(`../../../tests/fixtures/models/${name}`, import.meta.url)));

describe("3MF inflaters", () => {
  const good = package3mf(modelXml(cubeObjectXml(1), '<item objectid="1"/>'));
  const padded = modelXml(cubeObjectXml(1), '<item objectid="1"/>') + " ".repeat(20_000_000);
  const inputs: Array<{ name: string; bytes: () => Uint8Array; code?: string; stored?: boolean }> = [
    { name: "fixture with two objects", bytes: () => fixture("trimesh_cube_and_sphere_same_name.3mf") },
    {
      name: "stored (uncompressed) entries",
      stored: true,
      bytes: () =>
        zipSync(
          { "_rels/.rels": enc(RELS_XML), "3D/3dmodel.model": enc(modelXml(cubeObjectXml(1), '<item objectid="1"/>')) },
          { level: 0 },
        ),
    },
    { name: "damaged deflate data", bytes: () => damage(good), code: "bad-package" },
    {
      name: "bomb behind a lying directory",
      bytes: () => lieAboutSize(package3mf(padded), "3D/3dmodel.model", 1000),
      code: "zip-bomb",
    },
    {
      name: "DTD",
      bytes: () => package3mf(modelXml(cubeObjectXml(1), '<item objectid="1"/>', "millimeter", "<!DOCTYPE model>")),
      code: "dtd",
    },
  ];

  type ProcessWithBuiltins = { getBuiltinModule?: (id: string) => unknown };

  /** Runs parse3mf without Node's zlib, as in a browser or a worker: DecompressionStream inflates. */
  async function withoutNodeZlib<T>(f: () => Promise<T>): Promise<T> {
    const p = process as ProcessWithBuiltins;
    const saved = p.getBuiltinModule;
    p.getBuiltinModule = undefined;
    try {
      return await f();
    } finally {
      p.getBuiltinModule = saved;
    }
  }

  /** Runs parse3mf with DecompressionStream hidden too, as in a browser without "deflate-raw": fflate inflates instead. */
  async function withoutNative<T>(f: () => Promise<T>): Promise<T> {
    const g = globalThis as { DecompressionStream?: unknown };
    const saved = g.DecompressionStream;
    g.DecompressionStream = undefined;
    try {
      return await withoutNodeZlib(f);
    } finally {
      g.DecompressionStream = saved;
    }
  }

  it.each(inputs)(
    "gives the same result with Node's zlib, DecompressionStream and fflate: $name",
    async ({ bytes, code, stored }) => {
      expect(typeof DecompressionStream).toBe("function");
      const p = process as ProcessWithBuiltins;
      expect(typeof p.getBuiltinModule).toBe("function");
      const spy = vi.spyOn(p as Required<ProcessWithBuiltins>, "getBuiltinModule");
      try {
        if (code) {
          await expectMeshError(parse3mf(bytes()), code);
          await withoutNodeZlib(() => expectMeshError(parse3mf(bytes()), code));
          await withoutNative(() => expectMeshError(parse3mf(bytes()), code));
          return;
        }
        const node = await parse3mf(bytes());
        // stored entries need no inflater
        if (stored) expect(spy).not.toHaveBeenCalled();
        else expect(spy).toHaveBeenCalledWith("node:zlib");
        const web = await withoutNodeZlib(() => parse3mf(bytes()));
        const fallback = await withoutNative(() => parse3mf(bytes()));
        expect(node.triangleCount).toBeGreaterThan(0);
        expect(web).toEqual(node);
        expect(fallback).toEqual(node);
      } finally {
        spy.mockRestore();
      }
    },
  );
});

describe("joinAdjacent", () => {
  it("joins views that follow each other in one buffer, in order, and keeps the others apart", () => {
    const a = new Uint8Array(10);
    const b = new Uint8Array(4);
    const out = joinAdjacent([
      a.subarray(0, 3),
      a.subarray(3, 7),
      a.subarray(8, 10),
      b.subarray(0, 2),
      b.subarray(2, 4),
      a.subarray(0, 1),
    ]);
    expect(out.map((v) => [v.buffer === a.buffer ? "a" : "b", v.byteOffset, v.byteLength])).toEqual([
      ["a", 0, 7],
      ["a", 8, 2],
      ["b", 0, 4],
      ["a", 0, 1],
    ]);
  });
});
