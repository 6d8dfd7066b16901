import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { zipSync, strToU8, type Zippable } from "fflate";
import { parse3mf } from "./threemf";
import { computeBasicMetrics } from "./metrics";
import { computeTopology } from "./topology";
import { box, sphere, to3mf, threeMfModelXml, CONTENT_TYPES_XML, RELS_XML } from "./generate";
import { cubeObjectXml, damage, enc, expectMeshError, lieAboutSize, modelXml, package3mf } from "./test-helpers";

const fixture = (name: string): Uint8Array =>
  new Uint8Array(readFileSync(new URL(`../../../tests/fixtures/models/${name}`, import.meta.url)));

describe("3MF fixtures", () => {
  it("reads both objects of cube_and_sphere with their build transforms and colours", async () => {
    const m = await parse3mf(fixture("trimesh_cube_and_sphere_same_name.3mf"));
    const r = computeBasicMetrics(m);
    const t = computeTopology(m);
    expect(t.bodies).toBe(2);
    expect(t.closed).toBe(true);
    // a 40 mm cube plus a sphere of radius 20 (faceted)
    expect(r.volume).toBeGreaterThan(64000 + 33000);
    expect(r.volume).toBeLessThan(64000 + 33510);
    expect(r.boundingBox.z).toBeCloseTo(40, 2);
    expect(m.numberOfColors).toBe(2);
  });

  it("reads the 40 interlocked shells of the dodeca chain", async () => {
    const m = await parse3mf(fixture("3mfc_dodeca_chain_loop.3mf"));
    expect(m.triangleCount).toBe(7680);
    const t = computeTopology(m);
    expect(t.bodies).toBe(40);
    expect(t.closed).toBe(true);
    expect(computeBasicMetrics(m).volume).toBeCloseTo(32583.87, 0);
  });
});

describe("3MF units and transforms", () => {
  it.each([
    { unit: "micron", scale: 0.001 },
    { unit: "millimeter", scale: 1 },
    { unit: "centimeter", scale: 10 },
    { unit: "inch", scale: 25.4 },
    { unit: "foot", scale: 304.8 },
    { unit: "meter", scale: 1000 },
  ])("unit $unit scales to millimetres", async ({ unit, scale }) => {
    const m = await parse3mf(package3mf(modelXml(cubeObjectXml(1, 2), '<item objectid="1"/>', unit)));
    const r = computeBasicMetrics(m);
    expect(r.boundingBox.x / scale).toBeCloseTo(2, 4);
    expect(r.volume / scale ** 3).toBeCloseTo(8, 3);
  });

  const cases: Array<{
    name: string;
    resources: string;
    build: string;
    volume: number;
    min: [number, number, number];
    bodies: number;
  }> = [
    {
      name: "translated item",
      resources: cubeObjectXml(1),
      build: '<item objectid="1" transform="1 0 0 0 1 0 0 0 1 5 -3 7"/>',
      volume: 1000,
      min: [5, -3, 7],
      bodies: 1,
    },
    {
      name: "scaled item (x2 in x, x3 in z)",
      resources: cubeObjectXml(1),
      build: '<item objectid="1" transform="2 0 0 0 1 0 0 0 3 0 0 0"/>',
      volume: 6000,
      min: [0, 0, 0],
      bodies: 1,
    },
    {
      name: "item rotated 90 degrees about z",
      resources: cubeObjectXml(1),
      build: '<item objectid="1" transform="0 1 0 -1 0 0 0 0 1 0 0 0"/>',
      volume: 1000,
      min: [-10, 0, 0],
      bodies: 1,
    },
    {
      name: "one object placed twice",
      resources: cubeObjectXml(1),
      build: '<item objectid="1"/><item objectid="1" transform="1 0 0 0 1 0 0 0 1 20 0 0"/>',
      volume: 2000,
      min: [0, 0, 0],
      bodies: 2,
    },
    {
      name: "components with their own transforms inside a transformed item",
      resources:
        cubeObjectXml(1) +
        '<object id="2" type="model"><components>' +
        '<component objectid="1"/><component objectid="1" transform="1 0 0 0 1 0 0 0 1 0 0 15"/>' +
        "</components></object>",
      build: '<item objectid="2" transform="0.5 0 0 0 0.5 0 0 0 0.5 100 0 0"/>',
      volume: 250,
      min: [100, 0, 0],
      bodies: 2,
    },
    {
      name: "nested components (object -> object -> mesh)",
      resources:
        cubeObjectXml(1) +
        '<object id="2"><components><component objectid="1" transform="1 0 0 0 1 0 0 0 1 1 2 3"/></components></object>' +
        '<object id="3"><components><component objectid="2" transform="1 0 0 0 1 0 0 0 1 10 20 30"/></components></object>',
      build: '<item objectid="3"/>',
      volume: 1000,
      min: [11, 22, 33],
      bodies: 1,
    },
    {
      name: "objects that are not on the build plate are left out",
      resources: cubeObjectXml(1) + cubeObjectXml(2, 20),
      build: '<item objectid="2"/>',
      volume: 8000,
      min: [0, 0, 0],
      bodies: 1,
    },
  ];
  it.each(cases)("$name", async ({ resources, build, volume, min, bodies }) => {
    const m = await parse3mf(package3mf(modelXml(resources, build)));
    const r = computeBasicMetrics(m);
    expect(r.volume).toBeCloseTo(volume, 3);
    expect(r.min[0]).toBeCloseTo(min[0], 4);
    expect(r.min[1]).toBeCloseTo(min[1], 4);
    expect(r.min[2]).toBeCloseTo(min[2], 4);
    expect(computeTopology(m).bodies).toBe(bodies);
  });

  it("reads XML with prefixes, comments holding '>' and quotes, CDATA and single quotes", async () => {
    const xml =
      `<?xml version="1.0"?><!-- don't > stop --><m:model unit='millimeter' xmlns:m="http://schemas.microsoft.com/3dmanufacturing/core/2015/02">` +
      `<m:metadata name="Title"><![CDATA[ <vertex x="99"/> ]]></m:metadata><m:resources>` +
      cubeObjectXml(1)
        .replace(/<(\/?)/g, "<$1m:")
        .replace('x="10" y="0" z="0"', "x='10'  y = \"0\"\n z='0'") +
      `</m:resources><m:build><m:item objectid="1"/></m:build></m:model>`;
    const r = computeBasicMetrics(await parse3mf(package3mf(xml)));
    expect(r.volume).toBeCloseTo(1000, 4);
    expect(r.boundingBox.x).toBeCloseTo(10, 5);
  });

  it("reads every spelling of a <triangle> the same as the plain one", async () => {
    const plain = await parse3mf(package3mf(modelXml(cubeObjectXml(1), '<item objectid="1"/>')));
    const spellings: Array<[RegExp, string]> = [
      [/<triangle v1="(\d+)" v2="(\d+)" v3="(\d+)"\/>/g, "<triangle v1='$1' v2='$2' v3='$3'/>"],
      [/<triangle v1="(\d+)" v2="(\d+)" v3="(\d+)"\/>/g, '<triangle  v3 = "$3"\n v1="$1" v2="$2" ></triangle>'],
      [/<triangle v1="(\d+)" v2="(\d+)" v3="(\d+)"\/>/g, '<triangle v1="+$1" v2="00$2" v3="$3" p1="7" pid="1" />'],
    ];
    for (const [from, to] of spellings) {
      const xml = modelXml(cubeObjectXml(1).replace(from, to), '<item objectid="1"/>');
      expect(xml).not.toContain('<triangle v1="0"');
      const m = await parse3mf(package3mf(xml));
      expect(Array.from(m.indices as Uint32Array)).toEqual(Array.from(plain.indices as Uint32Array));
    }
    await expectMeshError(
      parse3mf(package3mf(modelXml(cubeObjectXml(1).replace('v1="0"', 'v1=""'), '<item objectid="1"/>'))),
      "malformed",
    );
    await expectMeshError(
      parse3mf(package3mf(modelXml(cubeObjectXml(1).replace('v1="0"', 'v1="-1"'), '<item objectid="1"/>'))),
      "malformed",
    );
  });

  it("finds the model part through _rels/.rels even when it is not 3D/3dmodel.model and comes first in the ZIP", async () => {
    const rels = RELS_XML.replace("/3D/3dmodel.model", "/3D/other%20name.model");
    const bytes = zipSync({
      "3D/other name.model": strToU8(modelXml(cubeObjectXml(1, 3), '<item objectid="1"/>')),
      "3D/decoy.model": strToU8(modelXml(cubeObjectXml(1, 50), '<item objectid="1"/>')),
      "[Content_Types].xml": strToU8(CONTENT_TYPES_XML),
      "_rels/.rels": strToU8(rels),
    });
    expect(computeBasicMetrics(await parse3mf(bytes)).volume).toBeCloseTo(27, 4);
  });

  it("round-trips a generated sphere through the writer", async () => {
    const s = sphere(10, 24, 48);
    const r = computeBasicMetrics(await parse3mf(to3mf(s)));
    expect(r.volume).toBeCloseTo(computeBasicMetrics(s).volume, 1);
  });
});

describe("3MF bad files", () => {
  const good = package3mf(modelXml(cubeObjectXml(1), '<item objectid="1"/>'));
  const padded = (bytes: number): string => modelXml(cubeObjectXml(1), '<item objectid="1"/>') + " ".repeat(bytes);
  const manyEntries: Zippable = {};
  for (let i = 0; i < 1001; i++) manyEntries[`Metadata/f${i}.txt`] = strToU8("x");

  const cases: Array<{ name: string; bytes: () => Uint8Array; code: string; message?: RegExp }> = [
    { name: "plain text", bytes: () => enc("this is not a zip"), code: "bad-package", message: /not a valid package/ },
    { name: "truncated ZIP", bytes: () => good.subarray(0, good.length - 30), code: "bad-package" },
    { name: "damaged deflate data", bytes: () => damage(good), code: "bad-package" },
    {
      name: "DTD in the model",
      bytes: () =>
        package3mf(modelXml(cubeObjectXml(1), '<item objectid="1"/>', "millimeter", '<!DOCTYPE model [<!ENTITY lol "lol">]>')),
      code: "dtd",
    },
    {
      name: "DTD in the relationships",
      bytes: () =>
        package3mf(modelXml(cubeObjectXml(1), '<item objectid="1"/>'), { "_rels/.rels": enc(`<!DOCTYPE x>${RELS_XML}`) }),
      code: "dtd",
    },
    { name: "more than 1000 entries", bytes: () => package3mf(padded(0), manyEntries), code: "too-many-entries" },
    { name: "inflates past 100x (declared)", bytes: () => package3mf(padded(20_000_000)), code: "zip-bomb" },
    {
      name: "inflates past 100x (directory lies about the size)",
      bytes: () => lieAboutSize(package3mf(padded(20_000_000)), "3D/3dmodel.model", 1000),
      code: "zip-bomb",
    },
    {
      name: "no relationships part",
      bytes: () => zipSync({ "3D/3dmodel.model": enc(modelXml(cubeObjectXml(1), '<item objectid="1"/>')) }),
      code: "bad-package",
    },
    {
      name: "relationships name a missing part",
      bytes: () =>
        package3mf("", { "3D/3dmodel.model": enc(""), "_rels/.rels": enc(RELS_XML.replace("3dmodel.model", "gone.model")) }),
      code: "bad-package",
    },
    {
      name: "triangle pointing at a missing vertex",
      bytes: () => package3mf(modelXml(cubeObjectXml(1).replace('v3="1"', 'v3="8"'), '<item objectid="1"/>')),
      code: "missing-vertex",
    },
    {
      name: "NaN vertex",
      bytes: () =>
        package3mf(modelXml(cubeObjectXml(1).replace('x="10" y="0" z="0"', 'x="NaN" y="0" z="0"'), '<item objectid="1"/>')),
      code: "bad-number",
    },
    {
      name: "infinite vertex",
      bytes: () =>
        package3mf(modelXml(cubeObjectXml(1).replace('x="10" y="0" z="0"', 'x="1e999" y="0" z="0"'), '<item objectid="1"/>')),
      code: "bad-number",
    },
    { name: "empty build", bytes: () => package3mf(modelXml(cubeObjectXml(1), "")), code: "empty" },
    {
      name: "item pointing at a missing object",
      bytes: () => package3mf(modelXml(cubeObjectXml(1), '<item objectid="7"/>')),
      code: "malformed",
    },
    {
      name: "components in a loop",
      bytes: () =>
        package3mf(
          modelXml(
            '<object id="1"><components><component objectid="2"/></components></object><object id="2"><components><component objectid="1"/></components></object>',
            '<item objectid="1"/>',
          ),
        ),
      code: "malformed",
    },
    {
      name: "unknown unit",
      bytes: () => package3mf(modelXml(cubeObjectXml(1), '<item objectid="1"/>', "furlong")),
      code: "malformed",
    },
    {
      name: "a vertex after its object ended inside the vertex list",
      bytes: () =>
        package3mf(
          modelXml(
            cubeObjectXml(1).replace(/<\/vertices>.*<\/mesh>/, "") + '<vertex x="1" y="2" z="3"/>',
            '<item objectid="1"/>',
          ),
        ),
      code: "malformed",
      message: /outside any object/,
    },
    {
      name: "a triangle after its object ended inside the triangle list",
      bytes: () =>
        package3mf(
          modelXml(cubeObjectXml(1).replace("</triangles>", "") + '<triangle v1="0" v2="1" v3="2"/>', '<item objectid="1"/>'),
        ),
      code: "malformed",
      message: /outside any object/,
    },
    {
      name: "a vertex after an empty object inside the vertex list",
      bytes: () =>
        package3mf(
          modelXml(
            cubeObjectXml(1).replace("</vertices>", '<object id="2"/><vertex x="1" y="2" z="3"/></vertices>'),
            '<item objectid="1"/>',
          ),
        ),
      code: "malformed",
      message: /outside any object/,
    },
    {
      name: "model XML cut inside a tag",
      bytes: () => package3mf(modelXml(cubeObjectXml(1), '<item objectid="1"/>').slice(0, -3)),
      code: "truncated",
    },
  ];
  it.each(cases)("refuses: $name", async ({ bytes, code, message }) => {
    await expectMeshError(parse3mf(bytes()), code, message);
  });

  it("keeps generated 3MF of several objects readable (control case)", async () => {
    const bytes = to3mf([{ mesh: box(10, 10, 10) }, { mesh: box(5, 5, 5), transform: "1 0 0 0 1 0 0 0 1 20 0 0" }]);
    const m = await parse3mf(bytes);
    expect(computeBasicMetrics(m).volume).toBeCloseTo(1125, 3);
    expect(threeMfModelXml([{ mesh: box(1, 1, 1) }])).toContain("<build>");
  });
});
