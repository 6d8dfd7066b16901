// Printer reviews: a job's customer rates the printer once the print reached them (picked up or
// shipped), once per job and editable; an owner never reviews their own printer. The printer's
// rating is the mean of its reviews (refreshPrinterRating), kept on the printer row with the count
// for cards and sorting.
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { printerReviews, printers, printJobs, users } from "../../db/schema";
import { AppError } from "~/domain/app-error";
import { ReviewSchema } from "~/domain/review-schema";
import { isReviewable, RATING_DECIMALS, REVIEW_NOT_YET, REVIEW_OWN_PRINTER } from "~/domain/reviews";
import { getDb, type Database } from "~/utils/db.server";
import { notify } from "./notifications.server";
import { limitWrite } from "./write-limits.server";

export interface ReviewContext {
  jobId: number;
  jobFileName: string;
  jobStatus: string;
  printerId: number;
  printerName: string;
  ownerId: number;
  /** why the customer can't review (yet), or null when they can */
  refusal: string | null;
  review: { rating: number; review: string | null; updatedAt: string } | null;
}

/** The review of a job as its customer sees it; null when the job isn't theirs or has no printer. */
export async function getReviewContext(jobId: number, customerId: number): Promise<ReviewContext | null> {
  const db = await getDb();
  const [row] = await db
    .select({
      jobId: printJobs.id,
      jobFileName: printJobs.fileName,
      jobStatus: printJobs.status,
      printerId: printers.id,
      printerName: printers.name,
      ownerId: printers.ownerId,
    })
    .from(printJobs)
    .innerJoin(printers, eq(printers.id, printJobs.printerId))
    .where(and(eq(printJobs.id, jobId), eq(printJobs.customerId, customerId)));
  if (!row || row.jobStatus === "draft") return null;
  const [review] = await db
    .select({ rating: printerReviews.rating, review: printerReviews.review, updatedAt: printerReviews.updatedAt })
    .from(printerReviews)
    .where(eq(printerReviews.jobId, jobId));
  const refusal = row.ownerId === customerId ? REVIEW_OWN_PRINTER : isReviewable(row.jobStatus) ? null : REVIEW_NOT_YET;
  return {
    jobId: row.jobId,
    jobFileName: row.jobFileName,
    jobStatus: row.jobStatus,
    printerId: row.printerId,
    printerName: row.printerName,
    ownerId: row.ownerId,
    refusal,
    review: review ? { rating: review.rating, review: review.review, updatedAt: review.updatedAt.toISOString() } : null,
  };
}

/**
 * Writes (or rewrites) the customer's review of the printer that made this job and refreshes the
 * printer's mean rating and count. Throws AppError: not_found (not their job), forbidden (their
 * own printer), conflict (not picked up or shipped yet), invalid (rating outside 1-5, text too long).
 */
export async function saveReview(input: { jobId: number; customerId: number; rating: unknown; review?: string | null }) {
  const context = await getReviewContext(input.jobId, input.customerId);
  if (!context) throw new AppError("not_found", "Order not found.");
  if (context.refusal === REVIEW_OWN_PRINTER) throw new AppError("forbidden", REVIEW_OWN_PRINTER);
  if (context.refusal) throw new AppError("conflict", context.refusal);
  const parsed = ReviewSchema.safeParse({ rating: input.rating, review: input.review ?? undefined });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError("invalid", issue?.message ?? "Invalid review.", { field: String(issue?.path[0] ?? "rating") });
  }
  await limitWrite(input.customerId, "review");
  const db = await getDb();
  const now = new Date();
  await db.batch([
    db
      .insert(printerReviews)
      .values({
        printerId: context.printerId,
        jobId: context.jobId,
        customerId: input.customerId,
        rating: parsed.data.rating,
        review: parsed.data.review,
      })
      .onConflictDoUpdate({
        target: printerReviews.jobId,
        set: { rating: parsed.data.rating, review: parsed.data.review, updatedAt: now },
      }),
    refreshPrinterRating(db, context.printerId),
  ]);
  // the owner hears of a new review (not of each edit); its text stays on the site
  if (!context.review) {
    const stars = parsed.data.rating === 1 ? "1 star" : `${parsed.data.rating} stars`;
    await notify(
      context.ownerId,
      "New Review",
      `A customer rated ${context.printerName} ${stars} for the order of ${context.jobFileName}.`,
      `/printers/${context.printerId}`,
      { kind: "order_update" },
    );
  }
  return { printerId: context.printerId, rating: parsed.data.rating, review: parsed.data.review, edited: !!context.review };
}

/**
 * The one rule for a printer's rating: the mean of its reviews rounded to RATING_DECIMALS places,
 * with their count (null and 0 with none). Written on the printer row for cards and sorting by
 * every path that adds reviews, the review form and the demo data alike.
 */
export function refreshPrinterRating(db: Database, printerId: number) {
  return db
    .update(printers)
    .set({
      rating: sql`(SELECT round(avg(rating), ${sql.raw(String(RATING_DECIMALS))}) FROM printer_reviews WHERE printer_id = ${printerId})`,
      totalReviews: sql`(SELECT count(*) FROM printer_reviews WHERE printer_id = ${printerId})`,
    })
    .where(eq(printers.id, printerId));
}

/**
 * The review links of a customer's jobs: for each of their picked-up or shipped jobs on a printer
 * they don't own, whether they reviewed it yet. Other jobs are left out (no link); only jobs whose
 * status (as the page read it) can be reviewed are looked up, so a page without one asks nothing.
 */
export async function reviewLinksOf(
  customerId: number,
  jobs: readonly { id: number; status: string }[],
): Promise<Map<number, { reviewed: boolean }>> {
  const links = new Map<number, { reviewed: boolean }>();
  const jobIds = jobs.filter((job) => isReviewable(job.status)).map((job) => job.id);
  if (jobIds.length === 0) return links;
  const db = await getDb();
  const rows = await db
    .select({ jobId: printJobs.id, status: printJobs.status, ownerId: printers.ownerId, reviewId: printerReviews.id })
    .from(printJobs)
    .innerJoin(printers, eq(printers.id, printJobs.printerId))
    .leftJoin(printerReviews, eq(printerReviews.jobId, printJobs.id))
    .where(and(eq(printJobs.customerId, customerId), inArray(printJobs.id, [...jobIds])));
  for (const row of rows) {
    if (isReviewable(row.status) && row.ownerId !== customerId) links.set(row.jobId, { reviewed: row.reviewId !== null });
  }
  return links;
}

export interface PrinterReviewView {
  id: number;
  rating: number;
  review: string | null;
  /** the reviewer's first name only */
  customerName: string;
  createdAt: string;
}

/** A printer's reviews, newest first. */
export async function listPrinterReviews(printerId: number, limit = 50): Promise<PrinterReviewView[]> {
  const db = await getDb();
  const rows = await db
    .select({
      id: printerReviews.id,
      rating: printerReviews.rating,
      review: printerReviews.review,
      firstName: users.firstName,
      createdAt: printerReviews.createdAt,
    })
    .from(printerReviews)
    .innerJoin(users, eq(users.id, printerReviews.customerId))
    .where(eq(printerReviews.printerId, printerId))
    .orderBy(desc(printerReviews.createdAt), desc(printerReviews.id))
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    rating: r.rating,
    review: r.review,
    customerName: r.firstName?.trim() || "A customer",
    createdAt: r.createdAt.toISOString(),
  }));
}
