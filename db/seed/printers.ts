// Demo printers around Berthoud, Loveland and Fort Collins CO, with their filament stock.
import type { Database } from "../../app/utils/db.server";
import * as s from "../schema";

export const DEMO_PRINTERS = [
  {
    owner: "bella",
    name: "Berthoud Print Shop",
    model: "Bambu Lab P1S",
    x: 256,
    y: 256,
    z: 256,
    rate: 12000,
    materials: ["PLA", "PETG", "ABS", "ASA", "TPU"],
    location: "345 Mountain Ave, Berthoud, CO 80513",
    city: "Berthoud",
    state: "CO",
    zip: "80513",
    lat: 40.3083,
    lon: -105.0811,
    available: true,
    description: "Enclosed CoreXY printer, fast and tidy. Pickup on Mountain Ave.",
    stock: [
      ["PLA", "Black", 1000],
      ["PLA", "White", 800],
      ["PETG", "Red", 750],
      ["PETG", "Black", 500],
      ["ABS", "Gray", 400],
    ],
  },
  {
    owner: "leo",
    name: "Loveland Makerspace MK4",
    model: "Prusa MK4",
    x: 250,
    y: 210,
    z: 220,
    rate: 10000,
    materials: ["PLA", "PETG", "TPU"],
    location: "500 E 3rd St, Loveland, CO 80537",
    city: "Loveland",
    state: "CO",
    zip: "80537",
    lat: 40.3953,
    lon: -105.0717,
    available: true,
    description: "Reliable Prusa in the makerspace; great surface finish.",
    stock: [
      ["PLA", "Red", 900],
      ["PLA", "Blue", 600],
      ["PETG", "Red", 300],
      ["TPU", "Black", 300],
    ],
  },
  {
    owner: "leo",
    name: "Loveland Mini",
    model: "Bambu Lab A1 mini",
    x: 180,
    y: 180,
    z: 180,
    rate: 9000,
    materials: ["PLA"],
    location: "Loveland, CO 80538",
    city: "Loveland",
    state: "CO",
    zip: "80538",
    lat: 40.4231,
    lon: -105.0643,
    available: false,
    description: "Small parts and keychains.",
    stock: [["PLA", "White", 500]],
  },
  {
    owner: "fran",
    name: "Fort Collins Fab Lab",
    model: "Qidi X-Max 3",
    x: 325,
    y: 325,
    z: 315,
    rate: 15000,
    materials: ["PLA", "PETG", "ABS", "ASA", "PC", "Nylon"],
    location: "215 N College Ave, Fort Collins, CO 80524",
    city: "Fort Collins",
    state: "CO",
    zip: "80524",
    lat: 40.588,
    lon: -105.077,
    available: true,
    description: "Large enclosed printer for engineering materials.",
    stock: [
      ["PETG", "Red", 2000],
      ["ASA", "Black", 1000],
      ["PLA", "White", 1000],
      ["Nylon", "Natural", 750],
    ],
  },
  {
    owner: "fran",
    name: "Old Town Ender",
    model: "Creality Ender 3 S1",
    x: 220,
    y: 220,
    z: 270,
    rate: 8000,
    materials: ["PLA", "PETG"],
    location: "Fort Collins, CO 80521",
    city: "Fort Collins",
    state: "CO",
    zip: "80521",
    lat: 40.5853,
    lon: -105.1016,
    available: true,
    description: "Budget-friendly PLA prints near campus.",
    stock: [
      ["PLA", "Green", 500],
      ["PETG", "Red", 1000],
      ["PLA", "Black", 800],
    ],
  },
] as const;

function sortedSides(x: number, y: number, z: number) {
  return [x, y, z].sort((a, b) => a - b);
}

/** Inserts the demo printers and their stock; returns their ids in DEMO_PRINTERS order. */
export async function seedPrinters(db: Database, userIds: Map<string, number>): Promise<number[]> {
  const printerIds: number[] = [];
  for (const p of DEMO_PRINTERS) {
    const [small, mid, large] = sortedSides(p.x, p.y, p.z);
    const [row] = await db
      .insert(s.printers)
      .values({
        ownerId: userIds.get(p.owner)!,
        name: p.name,
        model: p.model,
        description: p.description,
        buildVolumeX: p.x,
        buildVolumeY: p.y,
        buildVolumeZ: p.z,
        fitSmall: small,
        fitMid: mid,
        fitLarge: large,
        materials: [...p.materials],
        ratePerKgCents: p.rate,
        location: p.location,
        city: p.city,
        state: p.state,
        zip: p.zip,
        latitude: p.lat,
        longitude: p.lon,
        isAvailable: p.available,
      })
      .returning({ id: s.printers.id });
    printerIds.push(row.id);
    await db
      .insert(s.filamentInventory)
      .values(p.stock.map(([material, color, grams]) => ({ printerId: row.id, material, color, grams })));
  }
  return printerIds;
}
