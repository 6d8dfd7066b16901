// npm run bench:printers — seeds 100,000 and then 1,000,000 printers spread over the US into a scratch
// database and times the printer search (R*Tree prefilter, the app's strategy) against a B-tree bounding
// box and a full scan, and the whole /printers loader. See docs/decisions/006-printer-search.md.
//   --small   10,000 and 100,000 printers (a quick run)
import { createRequire } from "node:module";
import { mkdirSync, rmSync } from "node:fs";

const DB_FILE = "tests/.tmp/bench-printers.db";
const RUNS = 25;
const WARMUP = 3;
const BATCH = 1000;

// The app modules read DATABASE_URL when first used, so point them at the scratch file before importing them.
process.env.DATABASE_URL = `file:${DB_FILE}`;
process.env.SESSION_SECRET ||= "bench-printers-session-secret";

const { migrateDatabase } = await import("../db/migrate");
const { getClient } = await import("../app/utils/db.server");
const { searchPrinters } = await import("../app/services/printers/search.server");
const { loader: printersLoader } = await import("../app/routes/printers._index");
const { quotePrice } = await import("../app/domain/pricing");

interface ZipRecord {
  latitude: number;
  longitude: number;
  city: string;
  state: string;
  zip: string;
  country: string;
}

const zipcodes = createRequire(import.meta.url)("zipcodes") as { codes: Record<string, ZipRecord> };
// Every US ZIP in the lower 48, Alaska and Hawaii: printers cluster where people live, as they would.
const ZIPS = Object.values(zipcodes.codes).filter((z) => z.country === "US" && Number.isFinite(z.latitude) && z.latitude !== 0);

const MODELS = [
  { name: "Bambu Lab P1S", v: [256, 256, 256], materials: ["PLA", "PETG", "ABS", "ASA", "TPU"] },
  { name: "Bambu Lab A1 mini", v: [180, 180, 180], materials: ["PLA", "PETG", "TPU"] },
  { name: "Prusa MK4", v: [250, 210, 220], materials: ["PLA", "PETG", "TPU"] },
  { name: "Creality Ender 3 V2", v: [220, 220, 250], materials: ["PLA", "PETG"] },
  { name: "Qidi X-Max 3", v: [325, 325, 315], materials: ["PLA", "PETG", "ABS", "ASA", "PC", "Nylon"] },
  { name: "Elegoo Neptune 4", v: [225, 225, 265], materials: ["PLA", "PETG", "TPU"] },
];
const COLORS = ["Black", "White", "Red", "Blue", "Gray", "Green"];

let seed = 20251121;
function random(): number {
  // Park–Miller: the same printers every run, so numbers compare across machines.
  seed = (seed * 48271) % 2147483647;
  return seed / 2147483647;
}
const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;

async function insertPrinters(from: number, to: number, owners: number[]) {
  const client = await getClient();
  const started = performance.now();
  for (let start = from; start < to; start += 50_000) {
    const tx = await client.transaction("write");
    try {
      for (let first = start; first < Math.min(to, start + 50_000); first += BATCH) {
        const last = Math.min(to, first + BATCH, start + 50_000);
        const printerArgs: (string | number | null)[] = [];
        const stockArgs: (string | number)[] = [];
        let stockRows = 0;
        for (let i = first; i < last; i++) {
          const id = i + 1;
          const zip = pick(ZIPS);
          const model = pick(MODELS);
          const [x, y, z] = model.v as [number, number, number];
          const sorted = [x, y, z].sort((a, b) => a - b);
          const materials = model.materials.filter((m) => m === "PLA" || random() < 0.6);
          printerArgs.push(
            id,
            owners[i % owners.length]!,
            `Printer ${id}`,
            model.name,
            x,
            y,
            z,
            sorted[0]!,
            sorted[1]!,
            sorted[2]!,
            JSON.stringify(materials),
            6000 + Math.floor(random() * 20) * 500,
            `${zip.city}, ${zip.state} ${zip.zip}`,
            zip.city,
            zip.state,
            zip.zip,
            zip.latitude + (random() - 0.5) * 0.08,
            zip.longitude + (random() - 0.5) * 0.08,
            random() < 0.7 ? 1 : 0,
            random() < 0.6 ? Math.round((3.5 + random() * 1.5) * 10) / 10 : null,
            Math.floor(random() * 40),
          );
          // Two spools each, of materials the printer lists, so the colour-in-stock filter has work to do.
          const spools = new Set<string>();
          for (let s = 0; s < 2; s++) spools.add(`${pick(materials)}|${pick(COLORS)}`);
          for (const spool of spools) {
            const [material, color] = spool.split("|");
            stockArgs.push(id, material!, color!, Math.floor(random() * 5) * 250);
            stockRows++;
          }
        }
        const rows = last - first;
        await tx.execute({
          sql: `INSERT INTO printers (id, owner_id, name, model, build_volume_x, build_volume_y, build_volume_z, fit_small, fit_mid, fit_large,
                  materials, rate_per_kg_cents, location, city, state, zip, latitude, longitude, is_available, rating, total_reviews)
                VALUES ${Array.from({ length: rows }, () => `(${Array(21).fill("?").join(",")})`).join(",")}`,
          args: printerArgs,
        });
        await tx.execute({
          sql: `INSERT INTO filament_inventory (printer_id, material, color, grams) VALUES ${Array.from({ length: stockRows }, () => "(?,?,?,?)").join(",")}`,
          args: stockArgs,
        });
      }
      await tx.commit();
    } finally {
      tx.close();
    }
    process.stdout.write(`\r  inserted ${Math.min(to, start + 50_000).toLocaleString("en-US")} printers`);
  }
  // Fold the bulk load's WAL back into the file, as a long-running server would have, before timing reads.
  await client.execute("PRAGMA wal_checkpoint(TRUNCATE)");
  await client.execute("ANALYZE");
  process.stdout.write(` in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}

async function median(fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < WARMUP; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const SEARCHES = [
  {
    label: "Loveland, CO · 25 mi · PETG · available",
    query: { location: "Loveland, CO", radiusMiles: 25, material: "PETG", available: true },
  },
  {
    label: "Loveland, CO · 25 mi · 200 mm PETG Red 100 g",
    query: {
      location: "Loveland, CO",
      radiusMiles: 25,
      material: "PETG",
      color: "Red",
      weightGrams: 100,
      minX: 50,
      minY: 50,
      minZ: 200,
    },
  },
  {
    label: "Chicago, IL · 25 mi · PETG · available (dense)",
    query: { location: "Chicago, IL", radiusMiles: 25, material: "PETG", available: true },
  },
] as const;
const PAGE_URL =
  "http://localhost/printers?location=Loveland%2C+CO&radius=25&material=PETG&color=Red&weight=100&minX=50&minY=50&minZ=200";

interface Row {
  printers: number;
  label: string;
  matches: number;
  rtree: number;
  btree: number;
  scan: number;
}

async function measure(printers: number): Promise<{ rows: Row[]; page: number; pageScan: number }> {
  const rows: Row[] = [];
  for (const { label, query } of SEARCHES) {
    const results = await Promise.all(
      (["rtree", "btree", "scan"] as const).map((strategy) => searchPrinters({ ...query, limit: 60 }, { strategy })),
    );
    const ids = results.map((r) => r.printers.map((p) => p.id).join(","));
    if (new Set(ids).size !== 1 || new Set(results.map((r) => r.total)).size !== 1)
      throw new Error(`strategies disagree for ${label}`);
    rows.push({
      printers,
      label,
      matches: results[0]!.total,
      rtree: await median(() => searchPrinters({ ...query, limit: 60 }, { strategy: "rtree" })),
      btree: await median(() => searchPrinters({ ...query, limit: 60 }, { strategy: "btree" })),
      scan: await median(() => searchPrinters({ ...query, limit: 60 }, { strategy: "scan" })),
    });
  }
  const page = await median(() => printersLoader({ request: new Request(PAGE_URL), params: {}, context: {} }));
  // The same page's work on the baseline: search by full scan, then price each card.
  const pageScan = await median(async () => {
    const result = await searchPrinters({ ...SEARCHES[1].query, limit: 60 }, { strategy: "scan" });
    for (const p of result.printers) quotePrice({ weightGrams: 100, ratePerKgCents: p.ratePerKgCents });
  });
  return { rows, page, pageScan };
}

const ms = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(1));

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 || i === 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(" | ")} |`;
  return [line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.map(line)].join("\n");
}

async function main() {
  const small = process.argv.includes("--small");
  const sizes = small ? [10_000, 100_000] : [100_000, 1_000_000];
  mkdirSync("tests/.tmp", { recursive: true });
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${DB_FILE}${suffix}`, { force: true });
  (await migrateDatabase()).close();
  const client = await getClient();
  // A scratch file: durability does not matter here, and it makes the bulk load several times faster.
  await client.execute("PRAGMA synchronous = OFF");
  await client.execute("PRAGMA cache_size = -65536");

  // Most owners list one to three printers, so the owner lookups do the work they would in production.
  const OWNERS = Math.ceil(sizes.at(-1)! / 3);
  await client.execute({
    sql: `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
          INSERT INTO users (email, username, password_hash, first_name, last_name, user_type)
          SELECT 'owner' || i || '@bench.test', 'owner' || i, 'x', 'Owner', 'No. ' || i, 'printer_owner' FROM n`,
    args: [OWNERS],
  });
  const owners = (await client.execute("SELECT id FROM users ORDER BY id")).rows.map((r) => Number(r.id));

  console.log(`Printer search benchmark: median of ${RUNS} runs after ${WARMUP} warm-up runs, milliseconds, on ${DB_FILE}`);
  const all: Row[] = [];
  const pages: string[][] = [];
  let inserted = 0;
  for (const size of sizes) {
    console.log(`Seeding ${size.toLocaleString("en-US")} printers over ${ZIPS.length.toLocaleString("en-US")} US ZIP codes...`);
    await insertPrinters(inserted, size, owners);
    inserted = size;
    const { rows, page, pageScan } = await measure(size);
    all.push(...rows);
    pages.push([size.toLocaleString("en-US"), ms(page), ms(pageScan)]);
  }
  console.log("\nSearch query (searchPrinters: filter, radius, distance order, first 60 with owners and stock)");
  console.log(
    table(
      ["printers", "search", "matches", "R*Tree (app)", "B-tree box", "full scan"],
      all.map((r) => [
        r.printers.toLocaleString("en-US"),
        r.label,
        r.matches.toLocaleString("en-US"),
        ms(r.rtree),
        ms(r.btree),
        ms(r.scan),
      ]),
    ),
  );
  console.log(`\nWhole /printers loader: ${PAGE_URL.replace("http://localhost", "")}`);
  console.log(table(["printers", "page (app)", "page work on a full scan"], pages));
  client.close();
}

await main();
