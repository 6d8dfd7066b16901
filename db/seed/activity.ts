// What happened around Casey's orders: reviews of printed jobs, a conversation about the print in progress, notifications.
import { refreshPrinterRating } from "../../app/services/printer-reviews.server";
import type { Database } from "../../app/utils/db.server";
import * as s from "../schema";
import { DEMO_JOBS } from "./jobs";

/**
 * Reviews of printed jobs that reached Casey; each printer's rating is derived from its reviews by the rule the review
 * form uses (the shipped headphone hook stays unrated for the demo).
 */
export async function seedReviews(db: Database, customerId: number, printerIds: number[], jobIds: Map<string, number>) {
  const demoReviews = [
    { fileName: "coaster-set.stl", rating: 5, review: "Crisp layers and a friendly pickup on Mountain Ave." },
    { fileName: "name-tag.obj", rating: 4, review: "Clean text on a tiny part. Pickup took a day longer than planned." },
  ];
  for (const demo of demoReviews) {
    const job = DEMO_JOBS.find((j) => j.fileName === demo.fileName);
    const jobId = jobIds.get(demo.fileName);
    if (!job || job.printer === null || jobId === undefined) continue;
    const printerId = printerIds[job.printer];
    await db.insert(s.printerReviews).values({ printerId, jobId, customerId, rating: demo.rating, review: demo.review });
    await refreshPrinterRating(db, printerId);
  }
}

/** A short conversation about the print in progress: Casey asked, Bella answered (unread). */
export async function seedConversation(db: Database, customerId: number, ownerId: number, jobIds: Map<string, number>) {
  const lampShadeId = jobIds.get("lamp-shade.stl")!;
  await db.insert(s.messages).values([
    {
      jobId: lampShadeId,
      senderId: customerId,
      senderType: "customer",
      content: "Hi! Could the shade be a little thicker at the rim? It hangs over a warm bulb.",
      sentAt: new Date(Date.now() - 90 * 60 * 1000),
      readAt: new Date(Date.now() - 60 * 60 * 1000),
    },
    {
      jobId: lampShadeId,
      senderId: ownerId,
      senderType: "printer",
      content: "Sure: I added two extra walls at the rim. It will be ready tonight.",
      sentAt: new Date(Date.now() - 30 * 60 * 1000),
    },
  ]);
}

export async function seedNotifications(db: Database, customerId: number) {
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
}
