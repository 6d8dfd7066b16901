import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { catalogueModels, contactMessages, printers, printJobs } from "../../db/schema";
import type { JobStatus } from "../../app/domain/job-status";
import { loader as statsApiLoader } from "../../app/routes/api.stats";
import { loader as landingLoader } from "../../app/routes/_index";
import { action as contactAction } from "../../app/routes/contact";
import { WRITE_LIMITS } from "../../app/services/write-limits.server";
import { action as helpAction } from "../../app/routes/help";
import { getSiteStats, startOfMonthUtc, type SiteStats } from "../../app/services/stats.server";
import { failuresOf, formatTable, importsOf, scriptUrlsOf } from "../../scripts/bench-pages";
import { getDb } from "../../app/utils/db.server";
import { CLIENT_IP_HEADER } from "../../app/utils/rate-limit.server";
import { getHoneypot } from "../../app/utils/honeypot.server";
import { getToast } from "../../app/utils/toast.server";
import { args, createTestUser, formRequest, getRequest, run, sessionCookieFor } from "../setup/requests";

// Lets one test make the stats query fail while every other test runs the real one.
const statsFailure = vi.hoisted(() => ({ on: false }));
vi.mock("../../app/services/stats.server", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../app/services/stats.server")>();
  return {
    ...real,
    getSiteStats: (...a: Parameters<typeof real.getSiteStats>) =>
      statsFailure.on ? Promise.reject(new Error("database is down")) : real.getSiteStats(...a),
  };
});

afterEach(() => {
  statsFailure.on = false;
  vi.restoreAllMocks();
});

// Berthoud is the map's default centre; Loveland 6 mi, Fort Collins 19 mi, Denver 45 mi, Manhattan 1,600 mi away.
const PLACES = {
  berthoud: { latitude: 40.3083, longitude: -105.0811 },
  fortCollins: { latitude: 40.588, longitude: -105.077 },
  denver: { latitude: 39.7392, longitude: -104.9903 },
  manhattan: { latitude: 40.7506, longitude: -73.9972 },
};

let ownerId: number;
beforeAll(async () => {
  ownerId = (await createTestUser({ userType: "printer_owner" })).id;
});

async function addPrinter(at: { latitude: number; longitude: number } | null, isAvailable = true) {
  const db = await getDb();
  const [row] = await db
    .insert(printers)
    .values({
      ownerId,
      name: "Test printer",
      model: "Prusa MK4",
      buildVolumeX: 250,
      buildVolumeY: 210,
      buildVolumeZ: 220,
      fitSmall: 210,
      fitMid: 220,
      fitLarge: 250,
      ratePerKgCents: 10000,
      location: "Somewhere",
      latitude: at?.latitude ?? null,
      longitude: at?.longitude ?? null,
      isAvailable,
    })
    .returning({ id: printers.id });
  return row.id;
}

async function addJob(status: JobStatus, submittedAt: Date | null) {
  const db = await getDb();
  await db.insert(printJobs).values({ customerId: ownerId, status, fileName: "part.stl", submittedAt });
}

const honeypot = () => ({ [getHoneypot().getInputProps().nameFieldName]: "" });
const message = {
  name: "Sam Maker",
  email: "sam@example.test",
  subject: "Large print",
  message: "Can someone print a 300 mm vase?",
};

function withIp(request: Request, ip: string) {
  // the header server/index.ts sets from the socket
  request.headers.set(CLIENT_IP_HEADER, ip);
  return request;
}

async function toastOf(response: Response) {
  const cookie = response.headers
    .getSetCookie()
    .find((c) => c.startsWith("pn_toast="))
    ?.split(";")[0];
  expect(cookie).toBeTruthy();
  return (await getToast(getRequest("/", cookie))).toast;
}

describe("getSiteStats", () => {
  it("counts available printers within 25 miles, paid jobs this month, all printers and placed orders", async () => {
    const before = await getSiteStats();
    expect(before).toEqual({ printersNearby: 0, printsThisMonth: 0, totalPrinters: 0, totalOrders: 0 });

    await addPrinter(PLACES.berthoud);
    await addPrinter(PLACES.fortCollins);
    await addPrinter(PLACES.denver); // outside the radius
    await addPrinter(PLACES.berthoud, false); // busy
    await addPrinter(null); // no coordinates

    const now = new Date();
    const lastMonth = new Date(startOfMonthUtc(now).getTime() - 24 * 60 * 60 * 1000);
    await addJob("draft", null);
    await addJob("submitted", now); // placed, not paid
    await addJob("confirmed", now);
    await addJob("shipped", now);
    await addJob("picked_up", lastMonth); // paid, but last month
    await addJob("cancelled", now);
    await addJob("rejected", now);

    expect(await getSiteStats()).toEqual({
      printersNearby: 2,
      printsThisMonth: 2,
      totalPrinters: 5,
      // submitted, confirmed, shipped, picked_up: not drafts, cancellations or orders the printer rejected
      totalOrders: 4,
    });

    await addJob("printing", now);
    await addPrinter(PLACES.fortCollins);
    const after = await getSiteStats();
    expect(after.printsThisMonth).toBe(3);
    expect(after.totalOrders).toBe(5);
    expect(after.printersNearby).toBe(3);
    expect(after.totalPrinters).toBe(6);
  });

  it("measures from a signed-in user's ZIP, and from the default centre for visitors and unknown ZIPs", async () => {
    // through GET /api/stats, which reads the viewer from the session
    const statsFor = async (cookie?: string) =>
      (await (await run(() => statsApiLoader(args(getRequest("/api/stats", cookie))))).json()) as SiteStats;
    const visitor = await statsFor();
    await addPrinter(PLACES.manhattan);
    await addPrinter({ latitude: 40.7128, longitude: -74.006 });

    const newYorker = await createTestUser({ zipCode: "10001" });
    const nearNewYork = await statsFor(await sessionCookieFor(newYorker.id));
    expect(nearNewYork.printersNearby).toBe(2);

    const stranger = await createTestUser({ zipCode: "00000" });
    const fallback = await statsFor(await sessionCookieFor(stranger.id));
    expect(fallback.printersNearby).toBe(visitor.printersNearby);
    expect(visitor.printersNearby).toBeGreaterThan(0);
  });

  it("starts the month at midnight UTC on the 1st", () => {
    expect(startOfMonthUtc(new Date("2025-03-01T00:30:00-07:00")).toISOString()).toBe("2025-03-01T00:00:00.000Z");
    expect(startOfMonthUtc(new Date("2025-02-28T23:30:00-07:00")).toISOString()).toBe("2025-03-01T00:00:00.000Z");
  });
});

describe("GET /api/stats", () => {
  it("answers the four numbers as JSON", async () => {
    const res = await run(() => statsApiLoader(args(getRequest("/api/stats"))));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(["printersNearby", "printsThisMonth", "totalOrders", "totalPrinters"]);
    expect(body).toEqual(await getSiteStats());
    for (const value of Object.values(body)) expect(Number.isInteger(value)).toBe(true);
  });

  it("answers 500 with a message when the query fails", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    statsFailure.on = true;
    const res = await run(() => statsApiLoader(args(getRequest("/api/stats"))));
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ message: expect.stringMatching(/statistics/) });
  });
});

describe("landing page loader", () => {
  it("lists featured catalogue models by likes, at most 12, and the stats", async () => {
    const db = await getDb();
    await db.insert(catalogueModels).values(
      Array.from({ length: 14 }, (_, i) => ({
        sourceId: 9000 + i,
        name: `Model ${i}`,
        creatorName: "maker",
        likeCount: i * 10,
        featured: true,
      })),
    );
    await db.insert(catalogueModels).values({ sourceId: 9999, name: "Not featured", likeCount: 1_000_000, featured: false });
    const res = await run(() => landingLoader(args(getRequest("/"))));
    const body = await res.json();
    expect(body.featured).toHaveLength(12);
    expect(body.featured[0]).toEqual({
      sourceId: 9013,
      name: "Model 13",
      creatorName: "maker",
      thumbnailUrl: null,
      likeCount: 130,
      downloadCount: 0,
      viewCount: 0,
    });
    expect(body.featured.map((m: { name: string }) => m.name)).not.toContain("Not featured");
    expect(body.stats).toEqual(await getSiteStats());
  });

  it("hides the stats (null) when their query fails, and keeps the page", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    statsFailure.on = true;
    const res = await run(() => landingLoader(args(getRequest("/"))));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.stats).toBeNull();
    expect(body.featured.length).toBeGreaterThan(0);
  });
});

describe("contact form", () => {
  it("stores a visitor's message and redirects back with the Message Sent toast", async () => {
    const res = await run(() => contactAction(args(withIp(formRequest("/contact", { ...honeypot(), ...message }), "10.0.0.1"))));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/contact");
    expect(await toastOf(res)).toEqual({
      title: "Message Sent",
      description: expect.stringContaining("within 24 hours"),
      variant: "default",
    });
    const db = await getDb();
    const rows = await db.select().from(contactMessages).where(eq(contactMessages.email, message.email));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ ...message, userId: null });
  });

  it("links the message to a signed-in user and returns to /help when sent from there", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const res = await run(() =>
      helpAction(
        args(
          withIp(
            formRequest("/help", { ...honeypot(), ...message, email: user.email, subject: "  Order question  " }, { cookie }),
            "10.0.0.2",
          ),
        ),
      ),
    );
    expect(res.headers.get("location")).toBe("/help");
    const db = await getDb();
    const [row] = await db.select().from(contactMessages).where(eq(contactMessages.userId, user.id));
    expect(row).toMatchObject({ email: user.email, subject: "Order question" });
  });

  it("refuses blank fields with 400, an error for each, and keeps what was typed", async () => {
    const db = await getDb();
    const before = (await db.select().from(contactMessages)).length;
    const res = await run(() =>
      contactAction(
        args(
          withIp(
            formRequest("/contact", { ...honeypot(), name: "Sam", email: "not-an-email", subject: "   ", message: "" }),
            "10.0.0.3",
          ),
        ),
      ),
    );
    expect(res.status).toBe(400);
    const { result: body } = await res.json();
    expect(body.status).toBe("error");
    expect(body.error).toMatchObject({
      email: ["Enter a valid email address"],
      subject: ["Subject is required"],
      message: ["Message is required"],
    });
    expect(body.error.name).toBeUndefined();
    expect(body.initialValue).toMatchObject({ name: "Sam", email: "not-an-email" });
    expect((await db.select().from(contactMessages)).length).toBe(before);
  });

  it("drops a form whose honeypot was filled, storing nothing", async () => {
    const res = await run(() =>
      contactAction(
        args(
          withIp(
            formRequest("/contact", {
              [getHoneypot().getInputProps().nameFieldName]: "http://spam.example",
              ...message,
              email: "bot@example.test",
            }),
            "10.0.0.4",
          ),
        ),
      ),
    );
    expect(res.status).toBe(400);
    const db = await getDb();
    expect(await db.select().from(contactMessages).where(eq(contactMessages.email, "bot@example.test"))).toHaveLength(0);
  });

  it(`allows ${WRITE_LIMITS.contact.limit} messages an hour from one address, then answers 429`, async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= WRITE_LIMITS.contact.limit; i++) {
      const res = await run(() =>
        contactAction(
          args(withIp(formRequest("/contact", { ...honeypot(), ...message, email: "flood@example.test" }), "10.0.0.5")),
        ),
      );
      statuses.push(res.status);
    }
    expect(statuses.slice(0, WRITE_LIMITS.contact.limit).every((s) => s === 302)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    const other = await run(() =>
      contactAction(args(withIp(formRequest("/contact", { ...honeypot(), ...message }), "10.0.0.6"))),
    );
    expect(other.status).toBe(302);
  });
});

describe("bench:pages parsing", () => {
  it("finds the scripts a Remix document loads up front, and no false imports inside strings", () => {
    const html = `<head><link rel="modulepreload" href="/assets/manifest-1.js"/><link rel="modulepreload" href="/assets/root-2.js"/>
      <link rel="stylesheet" href="/assets/tailwind.css"/></head><body>
      <script>window.__remixContext = {"import":"from \\"/x.js\\""};</script>
      <script type="module" async="">import "/assets/manifest-1.js";
import * as route0 from "/assets/root-2.js";
import * as route1 from "/assets/_index-3.js";
import("/assets/entry.client-4.js");</script></body>`;
    expect(scriptUrlsOf(html).sort()).toEqual([
      "/assets/_index-3.js",
      "/assets/entry.client-4.js",
      "/assets/manifest-1.js",
      "/assets/root-2.js",
    ]);
  });

  it("tells static imports of a minified chunk from lazy ones", () => {
    const chunk = `import{r as s,j as e}from"./components-a.js";import"./side-b.js";const t=",children:";const l=()=>import("./leaflet-c.js");`;
    expect(importsOf(chunk, { dynamic: false })).toEqual(["./components-a.js", "./side-b.js"]);
    expect(importsOf(chunk)).toEqual(["./components-a.js", "./side-b.js", "./leaflet-c.js"]);
  });

  it("marks pages over budget and 404 pages in the table", () => {
    const table = formatTable([
      { path: "/", status: 200, htmlGz: 5 * 1024, jsGz: 90 * 1024, jsFiles: 8, lazyGz: 0 },
      { path: "/heavy", status: 200, htmlGz: 15 * 1024, jsGz: 111 * 1024, jsFiles: 9, lazyGz: 0 },
      { path: "/models", status: 404, htmlGz: 3 * 1024, jsGz: 88 * 1024, jsFiles: 8, lazyGz: 0 },
    ]);
    const rows = table.split("\n");
    expect(rows[2]).toMatch(/\| \/\s+\| 200\s+\| 5\.0\s+\| 90\.0\s+\|.*\| OK\s+\|$/);
    expect(rows[3]).toContain("OVER (HTML, JS)");
    expect(rows[4]).toContain("404 page");
  });

  it("fails the run for a page over budget, a redirect, an error answer or no answer, and passes pages within budget", () => {
    const ok = { status: 200, htmlGz: 5 * 1024, jsGz: 90 * 1024, jsFiles: 8, lazyGz: 0 };
    expect(failuresOf([{ path: "/", ...ok }])).toEqual([]);
    const failures = failuresOf([
      { path: "/", ...ok },
      { path: "/heavy-html", ...ok, htmlGz: 15 * 1024 },
      { path: "/heavy-js", ...ok, jsGz: 111 * 1024 },
      { path: "/printer-dashboard", ...ok, status: 302 },
      { path: "/models", ...ok, status: 404 },
      { path: "/down", ...ok, status: 0, error: "connection refused" },
    ]);
    expect(failures.map((f) => f.split(":")[0])).toEqual(["/heavy-html", "/heavy-js", "/printer-dashboard", "/models", "/down"]);
    expect(failures[2]).toContain("HTTP 302");
  });
});
