// Generates calibration shapes, slices them with PrusaSlicer (when installed) and compares our estimate.
//   npx tsx scripts/calibrate.ts            print the table (slicer results are cached in tests/.tmp/calibration)
//   npx tsx scripts/calibrate.ts --fit      also search the fitted factors of DEFAULT_CALIBRATION
//   npx tsx scripts/calibrate.ts --markdown print the table as Markdown for docs/weight-estimate.md

import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { box, cone, cup, cylinder, merge, sphere, torus, toBinaryStl } from "../app/domain/mesh/generate";
import { loadCalibrationTruth, readCalibrationModel } from "../tests/fixtures/calibration/set";
import {
  analyzeMesh,
  computeBasicMetrics,
  computeTopology,
  estimatePrint,
  parseModel,
  DEFAULT_CALIBRATION,
  type Calibration,
  type Mesh,
} from "../app/domain/mesh/index";

const root = resolve(import.meta.dirname, "..");
const outDir = join(root, "tests/.tmp/calibration");
const cacheFile = join(outDir, "slicer.json");
const sliceScript = join(root, "tests/fixtures/calibration/slice-grams.sh");

function shapes(): Record<string, Mesh> {
  const hollowSphere = merge({ mesh: sphere(40, 64, 128) }, { mesh: sphere(37, 64, 128, true, 40) });
  const hollowBox = merge({ mesh: box(50, 50, 50) }, { mesh: box(44, 44, 44, 3, 3, 3, true) });
  const multi = merge(
    { mesh: box(20, 20, 20) },
    { mesh: cylinder(3, 30, 48), at: [35, 10, 0] },
    { mesh: cylinder(3, 30, 48), at: [50, 10, 0] },
    { mesh: cylinder(5, 20, 48), at: [35, 35, 0] },
    { mesh: sphere(8, 32, 64), at: [55, 40, 0] },
  );
  return {
    cube_5: box(5, 5, 5),
    cube_10: box(10, 10, 10),
    cube_20: box(20, 20, 20),
    cube_40: box(40, 40, 40),
    cube_80: box(80, 80, 80),
    cube_150: box(150, 150, 150),
    plate_80x80x2: box(80, 80, 2),
    plate_100x60x1_2: box(100, 60, 1.2),
    plate_50x50x4: box(50, 50, 4),
    plate_150x150x3: box(150, 150, 3),
    tall_10x10x100: box(10, 10, 100),
    tall_20x20x150: box(20, 20, 150),
    bar_30x15x60: box(30, 15, 60),
    rod_d3_h40: cylinder(1.5, 40, 32),
    rod_d5_h50: cylinder(2.5, 50, 48),
    rod_d8_h60: cylinder(4, 60, 64),
    rod_d12_h60: cylinder(6, 60, 64),
    rod_d20_h80: cylinder(10, 80, 96),
    disc_d40_h40: cylinder(20, 40, 128),
    sphere_d10: sphere(5, 32, 64),
    sphere_d30: sphere(15, 48, 96),
    sphere_d60: sphere(30, 64, 128),
    sphere_d100_39600: sphere(50, 111, 180),
    torus_R30_r8: torus(30, 8, 96, 48),
    torus_R20_r3: torus(20, 3, 96, 32),
    torus_R50_r15: torus(50, 15, 128, 64),
    cone_r30_h60: cone(30, 60, 128),
    pyramid_40: cone(40, 40, 4),
    tube_r20_w1_2_h50: cup(20, 1.2, 50, 0, 128),
    tube_r10_w2_h30: cup(10, 2, 30, 0, 96),
    washer_r15_w5_h5: cup(15, 5, 5, 0, 96),
    cup_square_60_w2: cup(30, 2, 40, 2, 4),
    cup_round_r30_w1_6: cup(30, 1.6, 50, 1.6, 128),
    hollow_sphere_r40_w3: hollowSphere,
    hollow_box_50_w3: hollowBox,
    multi_body_5: multi,
  };
}

interface SlicerResult {
  grams: number;
  minutes: number;
  size: number;
}

function loadCache(): Record<string, SlicerResult> {
  return existsSync(cacheFile) ? (JSON.parse(readFileSync(cacheFile, "utf8")) as Record<string, SlicerResult>) : {};
}

function slice(files: string[], cache: Record<string, SlicerResult>): void {
  const todo = files.filter((f) => cache[basename(f)]?.size !== statSync(f).size);
  if (todo.length === 0) return;
  if (!existsSync(sliceScript)) {
    console.error("slice-grams.sh not found; using cached slicer results only");
    return;
  }
  try {
    execFileSync("sh", ["-c", "command -v prusa-slicer"], { stdio: "ignore" });
  } catch {
    console.error("prusa-slicer is not installed (apt-get install -y prusa-slicer); using cached results only");
    return;
  }
  for (const f of todo) {
    process.stderr.write(`slicing ${basename(f)}...\n`);
    const out = execFileSync(sliceScript, [f], { encoding: "utf8" });
    const line = out.trim().split("\n")[1] ?? "";
    const [, grams, minutes] = line.split("\t");
    if (!Number.isFinite(Number(grams))) {
      process.stderr.write(`  failed: ${line}\n`);
      continue;
    }
    cache[basename(f)] = { grams: Number(grams), minutes: Number(minutes), size: statSync(f).size };
    writeFileSync(cacheFile, JSON.stringify(cache, null, 1));
  }
}

interface Row {
  name: string;
  slicerGrams: number;
  slicerMinutes: number;
  grams: number;
  minutes: number;
  triangles: number;
}

function evaluate(meshes: Map<string, Mesh>, cache: Record<string, SlicerResult>, cal: Calibration): Row[] {
  const rows: Row[] = [];
  for (const [name, mesh] of meshes) {
    const ref = cache[name];
    // sub-gram parts are reported but their percentage error is meaningless at 0.01 g slicer resolution
    if (!ref) continue;
    const r = analyzeMesh(mesh, { material: "PLA", infill: 15, layerHeight: 0.2, supports: "no" }, cal);
    const est = analyzeRaw(mesh, cal);
    rows.push({
      name,
      slicerGrams: ref.grams,
      slicerMinutes: ref.minutes,
      grams: est.grams,
      minutes: est.minutes,
      triangles: r.triangles,
    });
  }
  return rows;
}

function analyzeRaw(mesh: Mesh, cal: Calibration): { grams: number; minutes: number } {
  const e = estimatePrint(
    computeTopology(mesh),
    computeBasicMetrics(mesh),
    { layerHeight: 0.2, infill: 15, density: 1.24, supports: "no" },
    cal,
  );
  return { grams: e.grams, minutes: e.minutes };
}

const pct = (ours: number, ref: number): number => ((ours - ref) / ref) * 100;
const median = (v: number[]): number => {
  const s = [...v].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const scored = (rows: Row[]): Row[] => rows.filter((r) => r.slicerGrams >= 0.5);

function summary(rows: Row[]): { medG: number; maxG: number; medT: number; maxT: number } {
  const s = scored(rows);
  const g = s.map((r) => Math.abs(pct(r.grams, r.slicerGrams)));
  const t = s.map((r) => Math.abs(pct(r.minutes, r.slicerMinutes)));
  return { medG: median(g), maxG: Math.max(...g), medT: median(t), maxT: Math.max(...t) };
}

function printTable(rows: Row[], markdown: boolean): void {
  const fmt = (v: number, d = 1): string => v.toFixed(d);
  if (markdown) {
    console.log("| model | triangles | slicer g | our g | error | slicer min | our min | error |");
    console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
  } else console.log(["model", "tris", "slicer_g", "our_g", "err%", "slicer_min", "our_min", "err%"].join("\t"));
  for (const r of rows) {
    const cells = [
      r.name,
      String(r.triangles),
      fmt(r.slicerGrams, 2),
      fmt(r.grams, 2),
      r.slicerGrams >= 0.5 ? `${pct(r.grams, r.slicerGrams) >= 0 ? "+" : ""}${fmt(pct(r.grams, r.slicerGrams))}%` : "n/a",
      fmt(r.slicerMinutes),
      fmt(r.minutes),
      r.slicerGrams >= 0.5 ? `${pct(r.minutes, r.slicerMinutes) >= 0 ? "+" : ""}${fmt(pct(r.minutes, r.slicerMinutes))}%` : "n/a",
    ];
    console.log(markdown ? `| ${cells.join(" | ")} |` : cells.join("\t"));
  }
  const s = summary(rows);
  console.log(
    `\nweight: median |error| ${fmt(s.medG)}%, max ${fmt(s.maxG)}%   time: median |error| ${fmt(s.medT)}%, max ${fmt(s.maxT)}%   (${scored(rows).length} models)`,
  );
}

type Knob = { get: (c: Calibration) => number; set: (c: Calibration, v: number) => void; name: string };

function fit(meshes: Map<string, Mesh>, cache: Record<string, SlicerResult>): Calibration {
  const cal: Calibration = structuredClone(DEFAULT_CALIBRATION);
  const weightKnobs: Knob[] = [
    { name: "infillFactor", get: (c) => c.infillFactor, set: (c, v) => (c.infillFactor = v) },
    { name: "bridgeFactor", get: (c) => c.bridgeFactor, set: (c, v) => (c.bridgeFactor = v) },
    { name: "shellFactor", get: (c) => c.shellFactor, set: (c, v) => (c.shellFactor = v) },
    { name: "anchorWidth", get: (c) => c.anchorWidth, set: (c, v) => (c.anchorWidth = v) },
    { name: "overhangPerimeterFactor", get: (c) => c.overhangPerimeterFactor, set: (c, v) => (c.overhangPerimeterFactor = v) },
  ];
  const timeKnobs: Knob[] = [
    {
      name: "eff.externalPerimeter",
      get: (c) => c.speedEfficiency.externalPerimeter,
      set: (c, v) => (c.speedEfficiency.externalPerimeter = v),
    },
    { name: "eff.perimeter", get: (c) => c.speedEfficiency.perimeter, set: (c, v) => (c.speedEfficiency.perimeter = v) },
    { name: "eff.infill", get: (c) => c.speedEfficiency.infill, set: (c, v) => (c.speedEfficiency.infill = v) },
    { name: "eff.solid", get: (c) => c.speedEfficiency.solid, set: (c, v) => (c.speedEfficiency.solid = v) },
    { name: "layerOverhead", get: (c) => c.layerOverhead, set: (c, v) => (c.layerOverhead = v) },
    { name: "islandOverhead", get: (c) => c.islandOverhead, set: (c, v) => (c.islandOverhead = v) },
  ];
  const lossG = (c: Calibration): number => {
    const s = scored(evaluate(meshes, cache, c)).map((r) => Math.abs(pct(r.grams, r.slicerGrams)));
    return median(s) + 0.5 * Math.max(...s);
  };
  const lossT = (c: Calibration): number => {
    const s = scored(evaluate(meshes, cache, c)).map((r) => Math.abs(pct(r.minutes, r.slicerMinutes)));
    return median(s) + 0.3 * Math.max(...s);
  };
  for (const [knobs, loss] of [
    [weightKnobs, lossG],
    [timeKnobs, lossT],
  ] as const) {
    let best = loss(cal);
    for (let round = 0; round < 4; round++) {
      for (const k of knobs) {
        for (const step of [0.2, 0.1, 0.05, 0.02, 0.01]) {
          for (const dir of [1, -1]) {
            const trial = structuredClone(cal);
            k.set(trial, Math.max(0.05, k.get(cal) * (1 + dir * step)));
            const l = loss(trial);
            if (l < best) {
              best = l;
              k.set(cal, k.get(trial));
            }
          }
        }
      }
    }
    console.error(`fitted ${knobs.map((k) => `${k.name}=${k.get(cal).toFixed(3)}`).join(" ")}  loss ${best.toFixed(2)}`);
  }
  return cal;
}

async function main(): Promise<void> {
  const args = new Set(process.argv.slice(2));
  mkdirSync(outDir, { recursive: true });
  const meshes = new Map<string, Mesh>();
  const files: string[] = [];
  for (const [name, mesh] of Object.entries(shapes())) {
    const file = join(outDir, `${name}.stl`);
    const bytes = toBinaryStl(mesh);
    if (!existsSync(file) || statSync(file).size !== bytes.length) writeFileSync(file, bytes);
    meshes.set(`${name}.stl`, mesh);
    files.push(file);
  }
  const cache = loadCache();
  slice(files, cache);
  // the real models of tests/fixtures/calibration, with the slicer's answers from truth.csv
  for (const m of loadCalibrationTruth()) {
    meshes.set(m.file, await parseModel(readCalibrationModel(m.file), m.file));
    cache[m.file] = { grams: m.grams, minutes: m.minutes, size: -1 };
  }
  const cal = args.has("--fit") ? fit(meshes, cache) : DEFAULT_CALIBRATION;
  if (args.has("--fit")) console.error(JSON.stringify(cal));
  printTable(evaluate(meshes, cache, cal), args.has("--markdown"));
}

void main();
