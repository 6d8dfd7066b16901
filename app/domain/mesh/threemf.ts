// 3MF reader: the package's relationships name the root model part, whose XML is scanned as bytes while its ZIP entry
// inflates; the mesh is then built from its build items.

import { notAPackage } from "./errors";
import { buildMesh, normalizePartName } from "./threemf-build";
import { ModelPartReader } from "./threemf-model";
import type { Mesh } from "./types";
import { XmlTagScanner, attrIs, decodeValue, forEachAttribute, localName, nameEquals } from "./xml-scan";
import { readZipEntries } from "./zip";

const MODEL_REL_TYPE = "http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel";

export async function parse3mf(bytes: Uint8Array): Promise<Mesh> {
  const parts = new Map<string, ModelPartReader>();
  const relsChunks: Uint8Array[] = [];
  let relsBytes = 0;
  const directory = await readZipEntries(bytes, (name) => {
    const key = normalizePartName(name);
    if (key === "_rels/.rels") {
      return (data) => {
        relsBytes += data.length;
        if (relsBytes > 1 << 20) throw notAPackage("its relationships part is larger than 1 MB");
        relsChunks.push(data);
      };
    }
    if (!key.endsWith(".model")) return null; // thumbnails, textures and print tickets are never inflated
    const reader = new ModelPartReader(key);
    parts.set(key, reader);
    return (data, final) => {
      reader.push(data);
      if (final) reader.finish();
    };
  });

  // find the root model part through the package relationships
  let rootKey: string | null = null;
  if (relsChunks.length > 0) {
    const rels = concat(relsChunks, relsBytes);
    const target = readRootTarget(rels);
    if (target) rootKey = normalizePartName(target);
  } else if (!directory.some((d) => normalizePartName(d.name) === "_rels/.rels")) {
    throw notAPackage("it has no _rels/.rels relationships part");
  }
  if (!rootKey) throw notAPackage("its relationships do not name a 3D model part");
  const root = parts.get(rootKey);
  if (!root) throw notAPackage(`its 3D model part ${rootKey} is missing`);
  return buildMesh(root.part, parts);
}

/** Reads one root model part from the given chunks; tests use it to pick chunk boundaries and to switch the fast reader off. */
export function meshFromModelChunks(chunks: Iterable<Uint8Array>, fast = true): Mesh {
  const reader = new ModelPartReader("3d/3dmodel.model", fast);
  for (const c of chunks) reader.push(c);
  reader.finish();
  return buildMesh(reader.part, new Map([[reader.part.name, reader]]));
}

function readRootTarget(relsXml: Uint8Array): string | null {
  let target: string | null = null;
  const scanner = new XmlTagScanner((b, s, e) => {
    const [ns, ne] = localName(b, s, e);
    if (!nameEquals(b, ns, ne, "Relationship")) return;
    let type = "";
    let t = "";
    forEachAttribute(b, s, e, (as, ae, vs, ve) => {
      if (attrIs(b, as, ae, "Type")) type = decodeValue(b, vs, ve).trim();
      else if (attrIs(b, as, ae, "Target")) t = decodeValue(b, vs, ve).trim();
    });
    if (type === MODEL_REL_TYPE && target === null && t) target = t;
  });
  scanner.push(relsXml);
  scanner.finish();
  return target;
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}
