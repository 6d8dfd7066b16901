// Demo data: categories, users of every role, printers around Berthoud, Loveland and Fort Collins CO,
// library and catalogue models, and a customer's orders in every status (pickup, local delivery
// and shipping), priced by the price engine and the shipping rate table.
//   npm run db:seed              seed (refuses a database that already has users)
//   npm run db:seed -- --if-empty  seed only an empty database (the demo command)
import { fileURLToPath } from "node:url";
import { count, eq } from "drizzle-orm";
import { analyzeModel, parseModel, renderPreviewPng } from "../app/domain/mesh";
import { box, cup, cylinder, merge, sphere, toBinaryStl, torus } from "../app/domain/mesh/generate";
import type { Mesh } from "../app/domain/mesh/types";
import type { JobStatus } from "../app/domain/job-status";
import { orderTotal, quotePrice, type DeliveryMethod } from "../app/domain/pricing";
import { tableShippingQuote } from "../app/domain/shipping";
import { milesBetweenZips } from "../app/services/shipping/rates.server";
import { refreshPrinterRating } from "../app/services/printer-reviews.server";
import { getStorage, newStorageKey } from "../app/services/storage.server";
import { openDatabase, type Database } from "../app/utils/db.server";
import { hashPassword } from "../app/utils/password.server";
import { migrateDatabase } from "./migrate";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, demoLoginsText } from "./demo-accounts";
import { DEMO_CATALOGUE_FILES, DEMO_CATALOGUE_MESHES } from "./demo-catalogue-meshes";
import * as s from "./schema";

export const CATEGORIES = [
  { id: 1, name: "Toys & Games", slug: "toys-games" },
  { id: 2, name: "Home & Garden", slug: "home-garden" },
  { id: 3, name: "Tools & Parts", slug: "tools-parts" },
  { id: 4, name: "Art & Decoration", slug: "art-decoration" },
  { id: 5, name: "Organization", slug: "organization" },
  { id: 6, name: "Tech & Gadgets", slug: "tech-gadgets" },
];

/** Casey's ZIP (Loveland), where her local-delivery and shipping orders go. */
const CUSTOMER_ZIP = "80537";
const SEED_SHIPPING_SERVICE = "usps_ground_advantage";

const DEMO_PRINTERS = [
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

const DEMO_LIBRARY_MODELS = [
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

const DEMO_CATALOGUE_MODELS = [
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

function sortedSides(x: number, y: number, z: number) {
  return [x, y, z].sort((a, b) => a - b);
}

export async function seedDatabase(db: Database, { log = console.log }: { log?: (line: string) => void } = {}) {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db.insert(s.categories).values(CATEGORIES).onConflictDoNothing();

  const userIds = new Map<string, number>();
  for (const account of DEMO_ACCOUNTS) {
    const isOwner = account.role.startsWith("printer owner");
    const [row] = await db
      .insert(s.users)
      .values({
        email: account.email,
        username: account.username,
        firstName: account.firstName,
        lastName: account.lastName,
        passwordHash,
        isAdmin: account.role === "admin",
        userType: isOwner ? "printer_owner" : "customer",
        zipCode: account.username === "casey" ? CUSTOMER_ZIP : null,
      })
      .returning({ id: s.users.id });
    userIds.set(account.username, row.id);
  }

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

  const creatorId = userIds.get("casey")!;
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

  const day = 24 * 60 * 60 * 1000;
  for (const [i, m] of DEMO_CATALOGUE_MODELS.entries()) {
    // weight and time from the very file the mock catalogue serves for it, as the weighing job would
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

  // Casey's jobs: a draft and orders in every status across the demo owners' printers, with the
  // payment records each status implies (authorised, captured, released, refunded) and one payout.
  const customerId = userIds.get("casey")!;
  type SeedJob = {
    status: JobStatus;
    fileName: string;
    grams: number;
    minutes: number;
    printer: number | null;
    delivery?: DeliveryMethod;
    tracking?: string;
    paidOut?: boolean;
  };
  const jobs: SeedJob[] = [
    { status: "draft", fileName: "bracket.stl", grams: 42, minutes: 120, printer: null },
    { status: "submitted", fileName: "gear-set.3mf", grams: 85, minutes: 240, printer: 1 },
    { status: "confirmed", fileName: "phone-stand.stl", grams: 55, minutes: 150, printer: 0 },
    { status: "confirmed", fileName: "cable-clip.stl", grams: 8, minutes: 20, printer: 3 },
    { status: "accepted", fileName: "drawer-handle.stl", grams: 30, minutes: 80, printer: 1 },
    { status: "printing", fileName: "lamp-shade.stl", grams: 160, minutes: 540, printer: 0 },
    { status: "completed", fileName: "plant-pot.stl", grams: 120, minutes: 300, printer: 3, delivery: "shipping" },
    { status: "ready_for_pickup", fileName: "dice-tower.3mf", grams: 140, minutes: 420, printer: 0 },
    { status: "ready_for_shipping", fileName: "desk-organiser.stl", grams: 210, minutes: 600, printer: 1, delivery: "shipping" },
    { status: "picked_up", fileName: "name-tag.obj", grams: 12, minutes: 35, printer: 3 },
    { status: "picked_up", fileName: "coaster-set.stl", grams: 48, minutes: 110, printer: 0, paidOut: true },
    {
      status: "shipped",
      fileName: "headphone-hook.stl",
      grams: 36,
      minutes: 95,
      printer: 2,
      delivery: "shipping",
      tracking: "9400111202555842761234",
    },
    { status: "ready_for_shipping", fileName: "shelf-bracket.stl", grams: 64, minutes: 160, printer: 0, delivery: "delivery" },
    { status: "cancelled", fileName: "keychain.stl", grams: 6, minutes: 15, printer: 1 },
    { status: "rejected", fileName: "vase.stl", grams: 250, minutes: 700, printer: 2 },
  ];
  const hour = 60 * 60 * 1000;
  const jobIds = new Map<string, number>();
  const reached = (job: SeedJob, step: JobStatus) => {
    const order = ["submitted", "confirmed", "accepted", "printing", "completed"] as const;
    const finals = ["ready_for_pickup", "ready_for_shipping", "picked_up", "shipped"];
    const index = (st: string) =>
      finals.includes(st) ? 5 + (st === "picked_up" || st === "shipped" ? 1 : 0) : order.indexOf(st as never);
    if (job.status === "cancelled" || job.status === "rejected") return step === "submitted" || step === "confirmed";
    return index(job.status) >= index(step);
  };
  for (const [i, job] of jobs.entries()) {
    const printerIndex = job.printer;
    const rate = printerIndex === null ? undefined : DEMO_PRINTERS[printerIndex].rate;
    const quote = quotePrice({ weightGrams: job.grams, printTimeMinutes: job.minutes, ratePerKgCents: rate });
    const delivery = job.delivery ?? "pickup";
    // shipping is priced by the built-in rate table from the printer's ZIP to Casey's, as an order placed today
    let shippingCents: number | null = null;
    if (delivery === "shipping" && printerIndex !== null) {
      const miles = milesBetweenZips(DEMO_PRINTERS[printerIndex].zip, CUSTOMER_ZIP);
      if (miles === null) throw new Error(`The gazetteer lacks ${DEMO_PRINTERS[printerIndex].zip} or ${CUSTOMER_ZIP}`);
      const option = tableShippingQuote(job.grams, miles).options.find((o) => o.service === SEED_SHIPPING_SERVICE);
      shippingCents = option!.estimatedCost;
    }
    const { deliveryFee, total } = orderTotal({ quote, deliveryMethod: delivery, shippingCents });
    const base = Date.now() - (jobs.length - i) * 6 * hour;
    const at = (step: JobStatus, offsetHours: number) => (reached(job, step) ? new Date(base + offsetHours * hour) : null);
    const ready =
      job.status === "ready_for_pickup" ||
      job.status === "ready_for_shipping" ||
      job.status === "picked_up" ||
      job.status === "shipped";
    const [row] = await db
      .insert(s.printJobs)
      .values({
        customerId,
        printerId: printerIndex === null ? null : printerIds[printerIndex],
        status: job.status,
        fileName: job.fileName,
        fileSize: 150_000,
        fileFormat: job.fileName.split(".").pop(),
        estimatedWeightGrams: job.grams,
        printTimeMinutes: job.minutes,
        deliveryMethod: delivery,
        deliveryZip: delivery === "pickup" ? null : CUSTOMER_ZIP,
        shippingCarrier: delivery === "shipping" ? "USPS" : null,
        shippingService: delivery === "shipping" ? SEED_SHIPPING_SERVICE : null,
        trackingNumber: job.tracking ?? null,
        totalCostCents: quote.customerPays,
        printerProfitCents: quote.printerProfit,
        platformFeeCents: quote.platformFee,
        deliveryFeeCents: deliveryFee,
        amountDueCents: total,
        submittedAt: job.status === "draft" ? null : new Date(base),
        confirmedAt: at("confirmed", 0.1),
        acceptedAt: job.status === "rejected" || job.status === "cancelled" ? null : at("accepted", 1),
        rejectedAt: job.status === "rejected" ? new Date(base + hour) : null,
        cancelledAt: job.status === "cancelled" ? new Date(base + hour) : null,
        printingStartedAt: job.status === "rejected" || job.status === "cancelled" ? null : at("printing", 2),
        completedAt: job.status === "rejected" || job.status === "cancelled" ? null : at("completed", 4),
        readyAt: ready ? new Date(base + 4.5 * hour) : null,
        pickedUpAt: job.status === "picked_up" ? new Date(base + 5 * hour) : null,
        shippedAt: job.status === "shipped" ? new Date(base + 5 * hour) : null,
      })
      .returning({ id: s.printJobs.id });
    jobIds.set(job.fileName, row.id);
    if (!reached(job, "confirmed") || job.status === "draft") continue;
    const captured = !(job.status === "confirmed" || job.status === "cancelled" || job.status === "rejected");
    const providerPaymentId = `test_pi_seed_${row.id}`;
    // the payment that confirmed the order, as paying records it
    await db.update(s.printJobs).set({ confirmedPaymentId: providerPaymentId }).where(eq(s.printJobs.id, row.id));
    await db.insert(s.payments).values({
      jobId: row.id,
      provider: "test",
      providerPaymentId,
      amountCents: total,
      status: captured ? "captured" : job.status === "confirmed" ? "authorized" : "released",
      authorizedAt: new Date(base + 0.1 * hour),
      authorizationExpiresAt: new Date(base + 0.1 * hour + 7 * 24 * hour),
      capturedAt: captured ? new Date(base + hour) : null,
      releasedAt: captured || job.status === "confirmed" ? null : new Date(base + hour),
    });
    if (job.paidOut && printerIndex !== null) {
      const ownerId = userIds.get(DEMO_PRINTERS[printerIndex].owner)!;
      await db
        .update(s.users)
        .set({ stripeAccountId: `acct_test_${ownerId}_seed` })
        .where(eq(s.users.id, ownerId));
      await db.insert(s.payouts).values({
        jobId: row.id,
        ownerId,
        amountCents: quote.printerProfit,
        provider: "test",
        providerTransferId: `tr_test_job_${row.id}`,
        status: "paid",
      });
    }
  }

  // Reviews of printed jobs that reached Casey; each printer's rating is derived from its reviews
  // by the rule the review form uses (the shipped headphone hook stays unrated for the demo).
  const demoReviews = [
    { fileName: "coaster-set.stl", rating: 5, review: "Crisp layers and a friendly pickup on Mountain Ave." },
    { fileName: "name-tag.obj", rating: 4, review: "Clean text on a tiny part. Pickup took a day longer than planned." },
  ];
  for (const demo of demoReviews) {
    const job = jobs.find((j) => j.fileName === demo.fileName);
    const jobId = jobIds.get(demo.fileName);
    if (!job || job.printer === null || jobId === undefined) continue;
    const printerId = printerIds[job.printer];
    await db.insert(s.printerReviews).values({ printerId, jobId, customerId, rating: demo.rating, review: demo.review });
    await refreshPrinterRating(db, printerId);
  }

  // A short conversation about the print in progress: Casey asked, Bella answered (unread).
  const lampShadeId = jobIds.get("lamp-shade.stl")!;
  await db.insert(s.messages).values([
    {
      jobId: lampShadeId,
      senderId: customerId,
      senderType: "customer",
      content: "Hi! Could the shade be a little thicker at the rim? It hangs over a warm bulb.",
      sentAt: new Date(Date.now() - 90 * 60 * 1000),
      readAt: new Date(Date.now() - hour),
    },
    {
      jobId: lampShadeId,
      senderId: userIds.get("bella")!,
      senderType: "printer",
      content: "Sure: I added two extra walls at the rim. It will be ready tonight.",
      sentAt: new Date(Date.now() - 30 * 60 * 1000),
    },
  ]);

  await db.insert(s.notifications).values([
    {
      userId: customerId,
      title: "Printing started",
      message: "Berthoud Print Shop started printing lamp-shade.stl.",
      link: "/dashboard",
    },
    {
      userId: customerId,
      title: "Order picked up",
      message: "Thanks for collecting name-tag.obj!",
      isRead: true,
      link: "/dashboard",
    },
  ]);

  log(
    `Seeded ${DEMO_ACCOUNTS.length} users, ${DEMO_PRINTERS.length} printers, ${DEMO_LIBRARY_MODELS.length} library models, ${DEMO_CATALOGUE_MODELS.length} catalogue models.`,
  );
  log(demoLoginsText());
}

async function main() {
  const ifEmpty = process.argv.includes("--if-empty");
  (await migrateDatabase()).close();
  const { client, db } = await openDatabase();
  try {
    const [{ n }] = await db.select({ n: count() }).from(s.users);
    if (n > 0) {
      if (ifEmpty) {
        console.log("The database already has data; leaving it as it is.");
        console.log(demoLoginsText());
        return;
      }
      throw new Error("The database already has users. Seed an empty database (delete data/app.db first).");
    }
    await seedDatabase(db);
  } finally {
    client.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await main();
}
