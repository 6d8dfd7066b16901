// A phone's photo posted through the real routes comes back without its EXIF and GPS block (decision 017):
// a printer photo (public, cached a year) and a claim photo, each read back from the route that serves it.
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { beforeEach, describe, expect, it } from "vitest";
import { printers } from "../../db/schema";
import { action as addPrinterAction } from "../../app/routes/add-printer";
import { loader as printerImageLoader } from "../../app/routes/api.printer-images.$file";
import { action as openClaimRoute } from "../../app/routes/api.print-jobs.$id.claims";
import { loader as claimPhotoRoute } from "../../app/routes/claims.$id.photos.$index";
import { printerImageUrl } from "../../app/services/printers/images.server";
import { payWithTestCard } from "../../app/services/orders/payment-flows.server";
import { transitionJob } from "../../app/services/orders/transitions.server";
import { getDb } from "../../app/utils/db.server";
import { PHONE_EXIF_TEXTS, phoneJpeg } from "../fixtures/images";
import { placeTestOrder } from "../setup/orders";
import { args, createTestUser, formRequest, getRequest, run, sessionCookieFor } from "../setup/requests";

const CARD = { cardNumber: "4242 4242 4242 4242", expiry: "12/34", cvc: "123", name: "Casey Customer" };

/** The served picture has no EXIF, no GPS text, and stands upright (the phone's 64×48 turned to 48×64). */
async function expectClean(response: Response) {
  expect([response.status, response.headers.get("content-type")]).toEqual([200, "image/jpeg"]);
  const bytes = Buffer.from(await response.arrayBuffer());
  for (const text of PHONE_EXIF_TEXTS) expect(bytes.includes(text), text).toBe(false);
  const meta = await sharp(bytes).metadata();
  expect([meta.format, meta.width, meta.height, meta.exif, meta.orientation]).toEqual(["jpeg", 48, 64, undefined, undefined]);
}

beforeEach(() => {
  delete process.env.STRIPE_SECRET_KEY;
});

describe("uploaded photos are served without their metadata", () => {
  it("a printer photo posted to /add-printer", async () => {
    const owner = await createTestUser();
    const fields = {
      name: "Garage Voron",
      model: "Custom/Other",
      customModel: "Voron 2.4",
      buildVolumeX: "350",
      buildVolumeY: "350",
      buildVolumeZ: "340",
      location: "Somewhere rural",
      latitude: "40.5",
      longitude: "-105.2",
      pricePerGram: "0.2",
      materials: "PLA",
      image: new File([await phoneJpeg()], "IMG_0001.jpg", { type: "image/jpeg" }),
    };
    const cookie = await sessionCookieFor(owner!.id);
    const added = await run(() => addPrinterAction(args(formRequest("/add-printer", fields, { cookie }))));
    expect(added.status).toBe(302);
    const [printer] = await (await getDb()).select().from(printers).where(eq(printers.ownerId, owner!.id));
    const file = printerImageUrl(printer!.imageKey).split("/").pop()!;
    await expectClean(await run(() => printerImageLoader(args(getRequest(`/api/printer-images/${file}`), { file }))));
  });

  it("a claim photo posted to /api/print-jobs/:id/claims", async () => {
    const order = await placeTestOrder();
    await payWithTestCard(order.customer.id, order.jobId, CARD);
    for (const action of ["accept", "start_printing", "complete", "ready_for_pickup", "mark_picked_up"] as const) {
      await transitionJob({ jobId: order.jobId, by: { userId: order.owner.id }, action });
    }
    const cookie = await sessionCookieFor(order.customer.id);
    const fields = {
      reason: "arrived_broken",
      description: "The bracket snapped in two.",
      photos: new File([await phoneJpeg()], "IMG_0002.jpg", { type: "image/jpeg" }),
    };
    const opened = await run(() =>
      openClaimRoute(args(formRequest(`/api/print-jobs/${order.jobId}/claims`, fields, { cookie }), { id: String(order.jobId) })),
    );
    expect(opened.status).toBe(201);
    const { claimId } = (await opened.json()) as { claimId: number };
    const photo = await run(() =>
      claimPhotoRoute(args(getRequest(`/claims/${claimId}/photos/0`, cookie), { id: String(claimId), index: "0" })),
    );
    await expectClean(photo);
  });
});
