// Benchmark: our engine vs the node-stl package on generated 10k / 100k / 1M-triangle files.
//   npm run bench:analysis [-- --quick]   (each case runs in a fresh child process so peak memory is its own)

import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gridSlab, to3mf, toAsciiStl, toBinaryStl, toObj } from "../app/domain/mesh/generate";
import { computeBasicMetrics, computeTopology, estimatePrint, parseModel } from "../app/domain/mesh/index";

const here = fileURLToPath(import.meta.url);
const root = resolve(here, "../..");
const dir = join(root, "tests/.tmp/bench");
const SIZES = [10_000, 100_000, 1_000_000];
const FORMATS = ["stl", "ascii.stl", "obj", "3mf"] as const;

interface Measure {
  medianMs: number;
  /** median process CPU time: steadier than wall time when other work shares the machine */
  cpuMs: number;
  /** median of the volume + area + bounding box step alone (ours only) */
  metricsMs?: number;
  peakMb: number;
  /** peak RSS minus the RSS before the file was read */
  growthMb: number;
  result?: string;
}

function cellsFor(triangles: number): number {
  // gridSlab has 4n^2 + 8n triangles
  return Math.round((-8 + Math.sqrt(64 + 16 * triangles)) / 8);
}

function generate(): Map<string, string> {
  mkdirSync(dir, { recursive: true });
  const files = new Map<string, string>();
  for (const n of SIZES) {
    const mesh = gridSlab(cellsFor(n));
    for (const fmt of FORMATS) {
      const path = join(dir, `slab_${n}.${fmt}`);
      if (!existsSync(path)) {
        const bytes =
          fmt === "stl" ? toBinaryStl(mesh) : fmt === "ascii.stl" ? toAsciiStl(mesh) : fmt === "obj" ? toObj(mesh) : to3mf(mesh);
        writeFileSync(path, bytes);
      }
      files.set(`${n}:${fmt}`, path);
    }
  }
  return files;
}

const median = (v: number[]): number => {
  const s = [...v].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

/** Child mode: time one engine on one file and print a JSON Measure. */
async function child(engine: string, path: string, runs: number): Promise<void> {
  const times: number[] = [];
  const cpuTimes: number[] = [];
  const metricTimes: number[] = [];
  const cpu = (): number => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sample = (): void => {
    peak = Math.max(peak, process.memoryUsage().rss);
  };
  const timer = setInterval(sample, 5);
  let result = "";
  for (let r = 0; r < runs; r++) {
    // each run starts from a collected heap, so the peak is one analysis, not leftovers of the previous one
    gc?.();
    // reading the file is not part of either engine's work: both receive the same bytes in memory
    const buf = readFileSync(path);
    sample();
    const c0 = cpu();
    const t0 = performance.now();
    if (engine === "ours") {
      const name = path.endsWith(".ascii.stl") ? "x.stl" : path;
      const mesh = await parseModel(new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength), name);
      const tm = performance.now();
      const basic = computeBasicMetrics(mesh);
      metricTimes.push(performance.now() - tm);
      sample();
      const topo = computeTopology(mesh);
      sample();
      const est = estimatePrint(topo, basic, { layerHeight: 0.2, infill: 15, density: 1.24, supports: "no" });
      result = `vol=${basic.volume.toFixed(0)} closed=${topo.closed} g=${est.grams.toFixed(1)}`;
    } else {
      const { default: NodeStl } = await import("node-stl");
      const stl = new NodeStl(buf, { density: 1.24 });
      result = `vol=${(stl.volume * 1000).toFixed(0)}`;
    }
    times.push(performance.now() - t0);
    cpuTimes.push(cpu() - c0);
    sample();
  }
  clearInterval(timer);
  const m: Measure = { medianMs: median(times), cpuMs: median(cpuTimes), peakMb: peak / 2 ** 20, growthMb: (peak - baseline) / 2 ** 20, result };
  if (metricTimes.length) m.metricsMs = median(metricTimes);
  process.stdout.write(JSON.stringify(m));
}

function run(engine: string, path: string, runs: number): Measure | null {
  try {
    const out = execFileSync(process.execPath, ["--import", "tsx", "--expose-gc", here, "--child", engine, path, String(runs)], {
      encoding: "utf8",
      maxBuffer: 1 << 20,
      timeout: 15 * 60_000,
      stdio: ["ignore", "pipe", "pipe"],
    });
    return JSON.parse(out) as Measure;
  } catch (e) {
    process.stderr.write(`${engine} on ${path} failed: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}\n`);
    return null;
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === "--child") {
    void child(argv[1], argv[2], Number(argv[3]));
    return;
  }
  const quick = argv.includes("--quick");
  const files = generate();
  const rows: string[][] = [];
  const header = [
    "triangles", "format", "file MB", "ours ms", "ours cpu ms", "ours vol/area/box ms", "ours peak MB (+growth)",
    "node-stl ms", "node-stl cpu ms", "node-stl peak MB (+growth)", "speed-up",
  ];
  for (const n of SIZES) {
    for (const fmt of FORMATS) {
      const path = files.get(`${n}:${fmt}`) as string;
      const mb = statSync(path).size / 2 ** 20;
      const runs = n >= 1_000_000 ? (quick ? 1 : 5) : quick ? 3 : 9;
      const ours = run("ours", path, runs);
      const stlFormat = fmt === "stl" || fmt === "ascii.stl";
      // node-stl is slow on big files: fewer repetitions keep the whole run within minutes
      const theirs = stlFormat ? run("node-stl", path, quick ? 1 : 3) : null;
      rows.push([
        n.toLocaleString("en-US"),
        fmt === "stl" ? "binary STL" : fmt === "ascii.stl" ? "ASCII STL" : fmt.toUpperCase(),
        mb.toFixed(1),
        ours ? ours.medianMs.toFixed(0) : "failed",
        ours ? ours.cpuMs.toFixed(0) : "",
        ours?.metricsMs !== undefined ? ours.metricsMs.toFixed(1) : "",
        ours ? `${ours.peakMb.toFixed(0)} (+${ours.growthMb.toFixed(0)})` : "",
        stlFormat ? (theirs ? theirs.medianMs.toFixed(0) : "failed") : "n/a",
        stlFormat ? (theirs ? theirs.cpuMs.toFixed(0) : "") : "n/a",
        stlFormat ? (theirs ? `${theirs.peakMb.toFixed(0)} (+${theirs.growthMb.toFixed(0)})` : "") : "n/a",
        ours && theirs ? `${(theirs.medianMs / ours.medianMs).toFixed(1)}x` : "n/a",
      ]);
      process.stderr.write(`done ${n} ${fmt}: ${ours?.result ?? ""}\n`);
    }
  }
  const { loadavg, cpus } = await import("node:os");
  console.log(`${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(1)).join(" ")} at the end of the run\n`);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]): string => cells.map((c, i) => c.padStart(widths[i])).join("  ");
  console.log(line(header));
  for (const r of rows) console.log(line(r));
  console.log(
    "\nours ms = parse + volume/area/box + welding, edges, bodies (closed-mesh check) + weight/time estimate; " +
      "node-stl ms = new NodeStl(buffer) (volume, area, box, centre of mass). Peak = process RSS (growth = peak minus RSS before the file was read, so the file bytes are included). ms = median wall time, cpu ms = median process CPU time.",
  );
}

void main();
