// The demo catalogue: every demo thing's printable file has its own mesh, which the mock serves and
// the seed weighs, so the model page's grams are the grams of the file Order Print downloads.
import { describe, expect, it } from "vitest";
import demoFixture from "../fixtures/thingiverse/demo-things.json";
import { DEMO_CATALOGUE_FILES, DEMO_CATALOGUE_MESHES } from "../../db/demo-catalogue-meshes";

describe("demo catalogue meshes", () => {
  it("name the file the mock catalogue lists for each demo thing, each with a mesh", () => {
    const files = demoFixture.files as Record<string, { name: string }[]>;
    expect(Object.keys(DEMO_CATALOGUE_FILES).sort()).toEqual(Object.keys(files).sort());
    for (const [thing, fileName] of Object.entries(DEMO_CATALOGUE_FILES)) {
      expect(files[thing].map((f) => f.name)).toContain(fileName);
      expect(DEMO_CATALOGUE_MESHES[fileName]().triangleCount).toBeGreaterThanOrEqual(12);
    }
  });

  it("serves each demo file as its own mesh, not the generic cube", async () => {
    const served = await fetch("https://cdn.thingiverse.com/assets/a3/0d/d6/a2/6c/flexi_rex.stl");
    const bytes = new Uint8Array(await served.arrayBuffer());
    const triangles = new DataView(bytes.buffer, bytes.byteOffset).getUint32(80, true);
    expect(triangles).toBe(DEMO_CATALOGUE_MESHES["flexi_rex.stl"]().triangleCount);
  });
});
