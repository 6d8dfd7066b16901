// Demo models: library models with printable stand-in meshes and thumbnails, and catalogue favourites weighed from the
// very files the mock catalogue serves.
import { analyzeModel, parseModel, renderPreviewPng } from "../../app/domain/mesh";
import { box, cup, cylinder, merge, sphere, toBinaryStl, torus } from "../../app/domain/mesh/generate";
import type { Mesh } from "../../app/domain/mesh/types";
import { getStorage, newStorageKey } from "../../app/services/storage.server";
import type { Database } from "../../app/utils/db.server";
import { DEMO_CATALOGUE_FILES, DEMO_CATALOGUE_MESHES } from "../demo-catalogue-meshes";
import * as s from "../schema";

/** Simple printable stand-ins for the demo library models, so ordering them works end to end. */
const DEMO_SHAPES: Record<string, () => Mesh> = {
  "Articulated Dragon": () =>
    merge({ mesh: sphere(14) }, { mesh: torus(18, 5), at: [40, 0, 5] }, { mesh: sphere(9), at: [-26, 0, 9] }),
  "Self-Watering Planter": () => cup(45, 2.4, 90, 3),
  "Cable Clip Set": () => merge({ mesh: box(30, 12, 10) }, { mesh: box(30, 12, 10), at: [0, 20, 0] }),
  "Phone Stand Pro": () => merge({ mesh: box(80, 70, 4) }, { mesh: box(80, 4, 60), at: [0, 20, 4] }),
  "Hex Key Holder": () =>
    merge({ mesh: box(90, 20, 15) }, { mesh: cylinder(3, 25), at: [-30, 0, 15] }, { mesh: cylinder(3, 25), at: [30, 0, 15] }),
};

export const DEMO_LIBRARY_MODELS = [
  {
    name: "Articulated Dragon",
    description: "A print-in-place articulated dragon that wiggles on your desk.",
    categoryId: 1,
    difficulty: "intermediate",
    license: "CC BY",
    tags: ["dragon", "articulated", "print-in-place"],
    featured: true,
  },
  {
    name: "Self-Watering Planter",
    description: "Two-part planter with a water reservoir for herbs on a windowsill.",
    categoryId: 2,
    difficulty: "beginner",
    license: "CC BY-SA",
    tags: ["planter", "garden", "kitchen"],
    featured: true,
  },
  {
    name: "Cable Clip Set",
    description: "Snap-on cable clips for desk edges from 10 to 25 mm thick.",
    categoryId: 5,
    difficulty: "beginner",
    license: "CC BY",
    tags: ["cable", "desk", "organizer"],
    featured: false,
  },
  {
    name: "Phone Stand Pro",
    description: "Adjustable phone stand with a charging cable slot, prints without supports.",
    categoryId: 6,
    difficulty: "beginner",
    license: "CC BY-NC",
    tags: ["phone stand", "desk", "gadget"],
    featured: false,
  },
  {
    name: "Hex Key Holder",
    description: "Wall-mounted holder for a metric hex key set, labelled sizes.",
    categoryId: 3,
    difficulty: "beginner",
    license: "CC BY",
    tags: ["tool", "workshop", "hex"],
    featured: false,
  },
] as const;

export const DEMO_CATALOGUE_MODELS = [
  {
    sourceId: 3495390,
    name: "Flexi Rex",
    creator: "DrLex",
    likes: 48210,
    downloads: 210450,
    views: 880120,
    license: "CC BY",
    category: "Toys & Games",
  },
  {
    sourceId: 2187167,
    name: "Modular Desk Organizer",
    creator: "Zacharia",
    likes: 12004,
    downloads: 56001,
    views: 210330,
    license: "CC BY-SA",
    category: "Organization",
  },
  {
    sourceId: 4734271,
    name: "Low-Poly Planter",
    creator: "Roman_Hegglin",
    likes: 9321,
    downloads: 40112,
    views: 150870,
    license: "CC BY-NC",
    category: "Home & Garden",
  },
  {
    sourceId: 763622,
    name: "Calibration Cube",
    creator: "iDig3Dprinting",
    likes: 22900,
    downloads: 610220,
    views: 1200300,
    license: "CC BY",
    category: "Tools & Parts",
  },
  {
    sourceId: 2806295,
    name: "Geared Heart",
    creator: "emmett",
    likes: 15620,
    downloads: 70110,
    views: 300450,
    license: "CC BY-SA",
    category: "Art & Decoration",
  },
  {
    sourceId: 1015238,
    name: "Headphone Stand",
    creator: "MakeItLab",
    likes: 7110,
    downloads: 33090,
    views: 120660,
    license: "CC BY",
    category: "Tech & Gadgets",
  },
] as const;

/** Inserts the library models with their STL files and rendered thumbnails, analysed with the default print settings. */
export async function seedLibraryModels(db: Database, creatorId: number): Promise<void> {
  for (const m of DEMO_LIBRARY_MODELS) {
    const bytes = toBinaryStl(DEMO_SHAPES[m.name](), m.name);
    const fileName = `${m.name.toLowerCase().replaceAll(/[^a-z0-9]+/g, "-")}.stl`;
    const analysis = await analyzeModel(bytes, fileName); // the default print settings, as every estimate
    const storageKey = newStorageKey("models", "stl");
    await getStorage().set(storageKey, new File([bytes as Uint8Array<ArrayBuffer>], fileName, { type: "model/stl" }));
    // no picture of its own: the thumbnail is rendered from the mesh, as for an upload without an image
    const imageKey = newStorageKey("model-images", "png");
    const png = renderPreviewPng(await parseModel(bytes, fileName));
    await getStorage().set(imageKey, new File([new Uint8Array(png)], "image.png", { type: "image/png" }));
    const [model] = await db
      .insert(s.libraryModels)
      .values({
        creatorId,
        categoryId: m.categoryId,
        name: m.name,
        description: m.description,
        difficulty: m.difficulty,
        printTimeMinutes: analysis.estimatedTimeMinutes,
        filamentWeightGrams: analysis.estimatedWeight,
        license: m.license,
        tags: [...m.tags],
        featured: m.featured,
        imageKey,
      })
      .returning({ id: s.libraryModels.id });
    await db
      .insert(s.modelFiles)
      .values({ libraryModelId: model.id, name: fileName, sizeBytes: bytes.byteLength, format: "stl", storageKey, analysis });
  }
}

/** Inserts the catalogue favourites, each weighed from the file the mock catalogue serves for it, as the weighing job would. */
export async function seedCatalogueModels(db: Database): Promise<void> {
  const day = 24 * 60 * 60 * 1000;
  for (const [i, m] of DEMO_CATALOGUE_MODELS.entries()) {
    const fileName = DEMO_CATALOGUE_FILES[m.sourceId];
    const fileAnalysis = await analyzeModel(toBinaryStl(DEMO_CATALOGUE_MESHES[fileName]()), fileName);
    await db.insert(s.catalogueModels).values({
      sourceId: m.sourceId,
      name: m.name,
      description: `${m.name} by ${m.creator}, a favourite on the model-sharing site.`,
      creatorName: m.creator,
      thumbnailUrl: `/demo/models/${m.sourceId}.svg`,
      imageUrls: [`/demo/models/${m.sourceId}.svg`],
      publicUrl: `https://www.thingiverse.com/thing:${m.sourceId}`,
      likeCount: m.likes,
      downloadCount: m.downloads,
      viewCount: m.views,
      license: m.license,
      categoryName: m.category,
      featured: true,
      estimatedWeightGrams: fileAnalysis.estimatedWeight,
      printTimeMinutes: fileAnalysis.estimatedTimeMinutes,
      sizeXMm: fileAnalysis.boundingBox.x,
      sizeYMm: fileAnalysis.boundingBox.y,
      sizeZMm: fileAnalysis.boundingBox.z,
      weightComputedAt: new Date(),
      sourceCreatedAt: new Date(Date.now() - (i + 1) * 30 * day),
    });
  }
}
