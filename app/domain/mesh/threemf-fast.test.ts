// The single-pass <vertex>/<triangle> reader must give the generic reader's mesh (or error) bit for bit, at any chunking.

import { describe, expect, it } from "vitest";
import { meshFromModelChunks } from "./threemf";
import { MeshError } from "./errors";
import { box, sphere, threeMfModelXml } from "./generate";
import { enc, modelXml } from "./test-helpers";
import type { Mesh } from "./types";

/** Deterministic chunk sizes so a failure can be replayed. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

function split(bytes: Uint8Array, size: number | (() => number)): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let o = 0; o < bytes.length;) {
    const n = typeof size === "number" ? size : size();
    // copies, so no chunk can read past its end into the next one
    out.push(bytes.slice(o, Math.min(bytes.length, o + n)));
    o += n;
  }
  return out;
}

type Outcome =
  { positions: Uint8Array; indices: Uint8Array; mesh: Omit<Mesh, "positions" | "indices"> } | { error: string; code: string };

function outcome(chunks: Uint8Array[], fast: boolean): Outcome {
  try {
    const { positions, indices, ...mesh } = meshFromModelChunks(chunks, fast);
    // raw bytes: equal floats are not enough, the bits must match
    return {
      positions: new Uint8Array(positions.buffer.slice(0)),
      indices: new Uint8Array(indices ? indices.buffer.slice(0) : new ArrayBuffer(0)),
      mesh,
    };
  } catch (e) {
    if (!(e instanceof MeshError)) throw e;
    return { error: e.message, code: e.code };
  }
}

function expectSameAtAnyChunking(xml: string): Outcome {
  const bytes = enc(xml);
  const reference = outcome([bytes], false);
  expect(outcome([bytes], true)).toEqual(reference);
  for (const size of [1, 7]) expect(outcome(split(bytes, size), true), `${size}-byte chunks`).toEqual(reference);
  for (let seed = 1; seed <= 5; seed++) {
    const rnd = lcg(seed);
    expect(
      outcome(
        split(bytes, () => 1 + Math.floor(rnd() * 97)),
        true,
      ),
      `random chunks, seed ${seed}`,
    ).toEqual(reference);
  }
  return reference;
}

const wrap = (vertices: string, triangles: string): string =>
  modelXml(
    `<object id="1" type="model"><mesh><vertices>${vertices}</vertices><triangles>${triangles}</triangles></mesh></object>`,
    '<item objectid="1"/>',
  );

const V3 = '<vertex x="0" y="0" z="0"/>\n<vertex x="10.5" y="0" z="0"/>\n<vertex x="0" y="-2.25" z="3"/>\n';
const T1 = '<triangle v1="0" v2="1" v3="2"/>\n';

describe("3MF single-pass vertex/triangle reader", () => {
  it("matches the generic reader on generated models at 1-byte, 7-byte and random chunk sizes", () => {
    const two = threeMfModelXml([{ mesh: sphere(7, 24, 12) }, { mesh: box(3, 4, 5), transform: "1 0 0 0 1 0 0 0 1 20 0 0" }]);
    expect("positions" in expectSameAtAnyChunking(two)).toBe(true);
  });

  it.each([
    ["attribute order", '<vertex z="3" x="1" y="2"/>', '<triangle v3="2" v1="0" v2="1"/>'],
    ["single quotes", "<vertex x='1' y='2' z='3'/>", "<triangle v1='0' v2='1' v3='2'/>"],
    ["mixed quotes", `<vertex x='1' y="2" z='3'/>`, `<triangle v1="0" v2='1' v3="2"/>`],
    ["extra whitespace", '<vertex \t x = "1"\n y\r\n=\t"2"   z="3"  />', '<triangle\nv1 = "0"\tv2="1"\r\nv3= "2" / >'],
    ["not self-closing", '<vertex x="1" y="2" z="3"></vertex>', '<triangle v1="0" v2="1" v3="2"></triangle>'],
    [
      "other attributes",
      '<vertex id="a" x="1" y="2" z="3" w="9"/>',
      '<triangle v1="0" v2="1" v3="2" pid="1" p1="0" p2="3" p3="7"/>',
    ],
    [
      "look-alike names",
      '<vertex xx="5" x="1" y="2" z="3" p:x="7"/>',
      '<triangle v4="9" v1="0" v2="1" v3="2" vv1="5" p:v1="8"/>',
    ],
    ["values with > and =", '<vertex note="a>b=c" x="1" y="2" z="3"/>', `<triangle v1="0" v2="1" v3="2" t='x>"y'/>`],
    ["duplicate attributes", '<vertex x="9" x="1" y="2" z="3"/>', '<triangle v1="2" v1="0" v2="1" v3="2"/>'],
    ["no space between attributes", '<vertex x="1"y="2"z="3"/>', '<triangle v1="0"v2="1"v3="2"/>'],
    [
      "exponents, signs and long numbers",
      '<vertex x="1e1" y="+2" z="-0.123456789012345678"/>',
      '<triangle v1="+0" v2="01" v3="0000000000000000002"/>',
    ],
    ["prefixed elements", '<m:vertex x="1" y="2" z="3"/>', '<m:triangle v1="0" v2="1" v3="2"/>'],
    ["the writers' form with a space before its end", '<vertex x="1" y="2" z="3" />', '<triangle v1="0" v2="1" v3="2" />'],
    ["the writers' form closed by >", '<vertex x="1" y="2" z="3" ></vertex>', '<triangle v1="0" v2="1" v3="2"></triangle>'],
    ["the writers' form and one more attribute", '<vertex x="1" y="2" z="3" w="4"/>', '<triangle v1="0" v2="1" v3="2" pid="1"/>'],
    ["a vertex tag running into the next tag", '<vertex x="1" y="2" z="3"', ""],
    [
      "comments and CDATA between",
      '<!-- <vertex x="5"> --><vertex x="1" y="2" z="3"/><![CDATA[<vertex>]]>',
      '<!-- --><triangle v1="0" v2="1" v3="2"/>',
    ],
  ])("%s", (_name, vertex, triangle) => {
    const r = expectSameAtAnyChunking(wrap(V3 + vertex, T1 + triangle + T1));
    expect("positions" in r).toBe(true);
  });

  it.each([
    ["a vertex number that is not a number", '<vertex x="1" y="abc" z="3"/>', T1],
    ["an empty vertex value", '<vertex x="" y="2" z="3"/>', T1],
    ["a missing z", '<vertex x="1" y="2"/>', T1],
    ["an infinite vertex", '<vertex x="1" y="inf" z="3"/>', T1],
    ["a negative vertex index", "", '<triangle v1="-1" v2="1" v3="2"/>'],
    ["an index that is not a number", "", '<triangle v1="a" v2="1" v3="2"/>'],
    ["a missing index", "", '<triangle v1="0" v2="1"/>'],
    ["an index past the vertices", "", '<triangle v1="0" v2="1" v3="3"/>'],
    ["a DTD inside the mesh", '<!DOCTYPE x [<!ENTITY a "b">]><vertex x="1" y="2" z="3"/>', T1],
  ])("reports %s exactly as the generic reader does", (_name, vertex, triangle) => {
    const r = expectSameAtAnyChunking(wrap(V3 + vertex, T1 + triangle));
    expect("error" in r).toBe(true);
  });
});
