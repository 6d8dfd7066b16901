import { createClient } from "@libsql/client";
import { createRequire } from "node:module";
import { rmSync } from "node:fs";
const zipcodes = createRequire(import.meta.url)("zipcodes");
const zips = Object.values(zipcodes.codes).filter((r: any) => r.country === "US" && r.latitude > 24 && r.latitude < 50 && r.longitude < -66 && r.longitude > -125) as any[];
console.log("zips", zips.length);
const file = "/tmp/printers-scratch/exp.db";
for (const s of ["", "-wal", "-shm"]) rmSync(file + s, { force: true });
const c = createClient({ url: "file:" + file });
await c.execute("PRAGMA journal_mode=WAL");
await c.execute("create table p (id integer primary key, lat real, lon real, avail int, mat text)");
await c.execute("create virtual table r using rtree(id, min_lat, max_lat, min_lon, max_lon)");
const N = Number(process.argv[2] ?? 1000000);
let t = Date.now();
for (let i = 0; i < N; i += 5000) {
  const rows: string[] = []; const rr: string[] = [];
  for (let j = i; j < Math.min(N, i + 5000); j++) {
    const z = zips[Math.floor(Math.random() * zips.length)];
    const lat = z.latitude + (Math.random() - 0.5) * 0.1, lon = z.longitude + (Math.random() - 0.5) * 0.1;
    rows.push(`(${j + 1},${lat},${lon},${Math.random() < 0.7 ? 1 : 0},'["PLA","PETG"]')`);
    rr.push(`(${j + 1},${lat},${lat},${lon},${lon})`);
  }
  await c.batch([`insert into p values ${rows.join(",")}`, `insert into r values ${rr.join(",")}`], "write");
}
console.log("insert", Date.now() - t);
t = Date.now();
await c.execute("create index p_geo on p(lat, lon)");
console.log("index", Date.now() - t);
const box = { minLat: 40.0336, maxLat: 40.7564, minLon: -105.548, maxLon: -104.596 };
async function time(label: string, sql: string, args: any[]) {
  const ts: number[] = []; let n = 0;
  for (let k = 0; k < 30; k++) { const s = performance.now(); const r = await c.execute({ sql, args }); n = r.rows.length; ts.push(performance.now() - s); }
  ts.sort((a, b) => a - b); console.log(label, n, ts[15].toFixed(2), "ms");
}
await time("btree", "select id, lat, lon from p where lat between ? and ? and lon between ? and ? and avail = 1", [box.minLat, box.maxLat, box.minLon, box.maxLon]);
await time("rtree", "select p.id, p.lat, p.lon from r join p on p.id = r.id where r.min_lat >= ? and r.max_lat <= ? and r.min_lon >= ? and r.max_lon <= ? and p.avail = 1", [box.minLat, box.maxLat, box.minLon, box.maxLon]);
await time("full", "select id, lat, lon from p where avail = 1", []);
