// Claims after pickup or delivery (decision 040): the customer reports a problem with photos, the
// printer's owner answers (refund, partial refund, reprint or decline), the customer accepts or
// escalates, an admin decides what is escalated or left unanswered. Each step is a row of the claim
// step table (domain/claims.ts) and one guarded UPDATE of its `to` where the status is its `from`, so a
// step happens once however many requests race; every step tells both parties (bell and e-mail) and is
// written into the order's conversation.
import { and, desc, eq, inArray, lte, sql } from "drizzle-orm";
import { claims, messages, printJobs } from "../../../db/schema";
import { AppError } from "~/domain/app-error";
import {
  CLAIM_PENDING,
  CLAIM_REASON_LABELS,
  claimStep,
  claimWindowEnd,
  MAX_CLAIM_PHOTOS,
  offeredRefundCents,
  OWNER_RESPONSE_LABELS,
  type ClaimPanel,
  type ClaimReason,
  type ClaimStep,
  type ClaimView,
  type OwnerResponse,
} from "~/domain/claims";
import { formatCents } from "~/domain/money";
import { readPrinterPhoto, storePrinterPhoto } from "~/services/printers/images.server";
import { notify } from "~/services/notifications.server";
import { limitWrite } from "~/services/write-limits.server";
import { paymentOfJob } from "~/services/payments/records.server";
import { getDb, preparedQuery } from "~/utils/db.server";
import { faultPoint } from "~/utils/fault-points.server";
import { loadJobParty, roleOf, type JobParty, type OrderView } from "./jobs.server";
import {
  NOTHING_TO_REFUND,
  refundableCents,
  refundsOfJob,
  refusedRefund,
  reserveRefund,
  sendPendingRefunds,
  type Writer,
} from "./refunds.server";
import { sendWaitingPayouts } from "./payout-repairs.server";

export const CLAIM_NOT_FOUND = "Claim not found";
export const CLAIM_WINDOW_CLOSED = "Problems can be reported within 7 days of pickup or delivery (14 days after shipping).";
export const CLAIM_ALREADY_OPEN = "A claim is already open for this order.";
export const CLAIM_NOTHING_LEFT = "This order was refunded in full: there is nothing left to claim.";
export const CLAIM_MOVED_ON = "This claim has moved on: reload the page to see where it stands.";

export type Claim = typeof claims.$inferSelect;
/** A step's fields besides the status, which the step table gives. */
type ClaimFields = Omit<Partial<typeof claims.$inferInsert>, "status">;

/** Tells both parties about a step and writes it into the order's conversation as the acting party's words. */
async function announce(
  party: JobParty,
  step: { title: string; message: string; thread?: { senderId: number; senderType: "customer" | "printer"; text: string } },
) {
  const { job } = party;
  if (step.thread) {
    const db = await getDb();
    await db.insert(messages).values({ jobId: job.id, ...step.thread, content: step.thread.text.slice(0, 2000) });
  }
  const link = `/order/${job.id}#claim`;
  for (const userId of [job.customerId, party.ownerId]) {
    if (userId)
      await notify(userId, step.title, `${step.message} (order #${job.id}, ${job.fileName})`, link, { kind: "order_update" });
  }
}

/** The claim with its order and parties; null when there is none or the viewer is neither party. */
async function claimFor(claimId: number, userId: number | "admin") {
  const db = await getDb();
  const [claim] = await db.select().from(claims).where(eq(claims.id, claimId)).limit(1);
  if (!claim) return null;
  const party = await loadJobParty(claim.jobId);
  if (!party) return null;
  const role = userId === "admin" ? "admin" : roleOf(party, userId);
  return role ? { claim, party, role } : null;
}

/** POST /api/print-jobs/{id}/claims and the claim form: the customer reports a problem. Null: not their order. */
export async function openClaim(input: {
  customerId: number;
  jobId: number;
  reason: ClaimReason;
  description: string;
  photos: File[];
  now?: number;
}): Promise<{ claimId: number } | null> {
  const now = input.now ?? Date.now();
  const party = await loadJobParty(input.jobId);
  if (!party || party.job.status === "draft") return null;
  const role = roleOf(party, input.customerId);
  if (!role) return null;
  const report = claimStep("report");
  if (party.job.customerId !== input.customerId) throw new AppError("forbidden", report.onlyActor);
  const closes = claimWindowEnd(party.job);
  if (closes === null || now > closes) throw new AppError("conflict", CLAIM_WINDOW_CLOSED);
  const files = input.photos.filter((file) => file.size > 0);
  if (files.length > MAX_CLAIM_PHOTOS)
    throw new AppError("invalid", `Add at most ${MAX_CLAIM_PHOTOS} photos.`, { field: "photos" });
  const checked = [];
  for (const file of files) checked.push(await readPrinterPhoto(file, "photos"));
  if (await pendingClaimOf(party.job.id)) throw new AppError("conflict", CLAIM_ALREADY_OPEN);
  if ((await refundableCents(party.job.id)) <= 0) throw new AppError("conflict", CLAIM_NOTHING_LEFT);
  await limitWrite(input.customerId, "claim", now);
  const photoKeys: string[] = [];
  for (const photo of checked) photoKeys.push(await storePrinterPhoto(photo, "claim-photos"));
  const db = await getDb();
  const [row] = await db
    .insert(claims)
    .values({
      jobId: party.job.id,
      customerId: input.customerId,
      reason: input.reason,
      description: input.description,
      photoKeys,
      status: report.to,
      createdAt: new Date(now),
    })
    .onConflictDoNothing()
    .returning({ id: claims.id });
  if (!row) throw new AppError("conflict", CLAIM_ALREADY_OPEN);
  await announce(party, {
    title: "Problem Reported",
    message: `A problem was reported: ${CLAIM_REASON_LABELS[input.reason]}.`,
    thread: {
      senderId: input.customerId,
      senderType: "customer",
      text: `Reported a problem (${CLAIM_REASON_LABELS[input.reason]}): ${input.description}`,
    },
  });
  return { claimId: row.id };
}

async function pendingClaimOf(jobId: number): Promise<Claim | null> {
  const db = await getDb();
  const [claim] = await db
    .select()
    .from(claims)
    .where(and(eq(claims.jobId, jobId), inArray(claims.status, [...CLAIM_PENDING])))
    .limit(1);
  return claim ?? null;
}

/** Takes a step of the claim table with its fields, once: the step's `to` where the claim is in its `from`; false when it had moved on. */
async function moveClaim(
  claimId: number,
  step: Exclude<ClaimStep, "report">,
  set: ClaimFields,
  db: Writer | null = null,
): Promise<boolean> {
  const { from, to } = claimStep(step);
  const result = await (db ?? (await getDb()))
    .update(claims)
    .set({ ...set, status: to })
    .where(and(eq(claims.id, claimId), eq(claims.status, from!)));
  return result.rowsAffected === 1;
}

/**
 * Resolves a claim with its outcome. A refund it promises is reserved in the same transaction, so the
 * claim never reads "refunded" without its refund, nor the refund stands without the decision; the
 * provider is asked after the commit, and what it can't do now the money reconciliation finishes.
 */
async function resolveClaim(claim: Claim, step: "accept" | "decide", refundCents: number, set: ClaimFields) {
  const payment = refundCents > 0 ? await paymentOfJob(claim.jobId, ["captured", "refunded"]) : null;
  const db = await getDb();
  await db.transaction(async (tx) => {
    if (!(await moveClaim(claim.id, step, { ...set, refundCents }, tx))) throw new AppError("conflict", CLAIM_MOVED_ON);
    if (refundCents <= 0) return;
    if (!payment) throw new AppError("conflict", NOTHING_TO_REFUND);
    faultPoint("claim:before-refund");
    const reserved = await reserveRefund(tx, { payment, amountCents: refundCents, claimId: claim.id });
    if (!reserved) throw await refusedRefund({ amountCents: refundCents, claimId: claim.id }, tx);
  });
  if (payment) await sendPendingRefunds(claim.jobId);
}

/** POST /api/claims/{id}/respond: the printer's owner answers an open claim. */
export async function respondToClaim(input: {
  userId: number;
  claimId: number;
  action: OwnerResponse;
  amountCents?: number | null;
  message: string;
  now?: number;
}) {
  const found = await claimFor(input.claimId, input.userId);
  if (!found) return null;
  if (found.role !== claimStep("answer").actor) throw new AppError("forbidden", claimStep("answer").onlyActor);
  const refundable = await refundableCents(found.claim.jobId);
  if (input.action === "refund_partial") {
    const amount = Math.trunc(input.amountCents ?? 0);
    if (amount <= 0) throw new AppError("invalid", "Enter the amount to refund.", { field: "amount" });
    if (amount > refundable)
      throw new AppError("invalid", `A refund can be at most ${formatCents(refundable)}.`, { field: "amount" });
  }
  const offered = offeredRefundCents(input.action, input.amountCents, refundable);
  if (offered === 0) throw new AppError("conflict", "Nothing is left to refund on this order.");
  await limitWrite(input.userId, "claim", input.now);
  const moved = await moveClaim(input.claimId, "answer", {
    ownerResponse: input.action,
    offeredCents: offered,
    ownerMessage: input.message,
    answeredAt: new Date(input.now ?? Date.now()),
  });
  if (!moved) throw new AppError("conflict", CLAIM_MOVED_ON);
  const what = offered
    ? `${OWNER_RESPONSE_LABELS[input.action]} of ${formatCents(offered)}`
    : OWNER_RESPONSE_LABELS[input.action];
  await announce(found.party, {
    title: "Claim Answered",
    message: `The printer answered the claim: ${what}.`,
    thread: { senderId: input.userId, senderType: "printer", text: `Answered the claim: ${what}. ${input.message}` },
  });
  return { claimId: input.claimId, status: "answered" as const, offeredCents: offered };
}

/** POST /api/claims/{id}/accept: the customer takes the owner's answer; an offered refund is made. */
export async function acceptClaimAnswer(input: { userId: number; claimId: number; now?: number }) {
  const found = await claimFor(input.claimId, input.userId);
  if (!found) return null;
  if (found.party.job.customerId !== input.userId) throw new AppError("forbidden", claimStep("accept").onlyActor);
  const now = new Date(input.now ?? Date.now());
  const refund = found.claim.offeredCents ?? 0;
  await resolveClaim(found.claim, "accept", refund, { acceptedAt: now, resolvedAt: now });
  await announce(found.party, {
    title: "Claim Resolved",
    message:
      refund > 0 ? `The customer accepted a refund of ${formatCents(refund)}.` : "The customer accepted the printer's answer.",
    thread: { senderId: input.userId, senderType: "customer", text: "Accepted the printer's answer to the claim." },
  });
  await sendWaitingPayouts({ jobId: found.claim.jobId });
  return { claimId: input.claimId, status: "resolved" as const, refundCents: refund };
}

/** POST /api/claims/{id}/escalate: the customer asks Printnear to decide. */
export async function escalateClaim(input: { userId: number; claimId: number; now?: number }) {
  const found = await claimFor(input.claimId, input.userId);
  if (!found) return null;
  if (found.party.job.customerId !== input.userId) throw new AppError("forbidden", claimStep("escalate").onlyActor);
  const moved = await moveClaim(input.claimId, "escalate", {
    escalatedBy: "customer",
    escalatedAt: new Date(input.now ?? Date.now()),
  });
  if (!moved) throw new AppError("conflict", CLAIM_MOVED_ON);
  await announce(found.party, {
    title: "Claim Escalated",
    message: "The claim went to Printnear support, who will decide.",
    thread: { senderId: input.userId, senderType: "customer", text: "Asked Printnear support to decide the claim." },
  });
  return { claimId: input.claimId, status: "escalated" as const };
}

/** POST /api/admin/claims/{id}/decide: an admin refunds (all or part, within what is left) or not, with a note both parties see. */
export async function decideClaim(input: { adminId: number; claimId: number; refundCents: number; note: string; now?: number }) {
  const found = await claimFor(input.claimId, "admin");
  if (!found) return null;
  const refund = Math.trunc(input.refundCents);
  const refundable = await refundableCents(found.claim.jobId);
  if (refund < 0 || refund > refundable)
    throw new AppError("invalid", `A refund can be at most ${formatCents(refundable)}.`, { field: "refund" });
  await limitWrite(input.adminId, "admin", input.now);
  const now = new Date(input.now ?? Date.now());
  await resolveClaim(found.claim, "decide", refund, {
    adminNote: input.note,
    decidedById: input.adminId,
    decidedAt: now,
    resolvedAt: now,
  });
  await announce(found.party, {
    title: "Claim Decided",
    message: `${refund > 0 ? `Printnear support refunded ${formatCents(refund)}` : "Printnear support decided on no refund"}: ${input.note}`,
  });
  await sendWaitingPayouts({ jobId: found.claim.jobId });
  return { claimId: input.claimId, status: "resolved" as const, refundCents: refund };
}

/** Claims left unanswered by the owner past OWNER_ANSWER_MS go to the admins (the claims sweep). */
export async function escalateUnanswered(deadline: number, now = Date.now()): Promise<number[]> {
  const { from, to } = claimStep("escalate_unanswered");
  const db = await getDb();
  const moved = await db
    .update(claims)
    .set({ status: to, escalatedBy: "unanswered", escalatedAt: new Date(now) })
    .where(and(eq(claims.status, from!), lte(claims.createdAt, new Date(deadline))))
    .returning({ id: claims.id, jobId: claims.jobId });
  for (const row of moved) {
    const party = await loadJobParty(row.jobId);
    if (party) {
      await announce(party, {
        title: "Claim Escalated",
        message: "The printer did not answer the claim in 3 days: Printnear support will decide.",
      });
    }
  }
  return moved.map((row) => row.id);
}

/** The order's claims, newest first, for its customer or owner (GET /api/print-jobs/{id}/claims); null: not theirs. */
export async function claimsOfJob(jobId: number, userId: number | "admin") {
  const party = await loadJobParty(jobId);
  return party ? claimsOfParty(party, userId) : null;
}

/** A job's claims, newest first: the order page reads them on every view. */
const claimsNewestFirst = preparedQuery((db) =>
  db
    .select()
    .from(claims)
    .where(eq(claims.jobId, sql.placeholder("jobId")))
    .orderBy(desc(claims.createdAt), desc(claims.id))
    .prepare(),
);

/** claimsOfJob for a job already loaded. */
async function claimsOfParty(party: Pick<JobParty, "job" | "ownerId">, userId: number | "admin") {
  if (party.job.status === "draft") return null;
  if (userId !== "admin" && !roleOf(party, userId)) return null;
  return claimsNewestFirst(await getDb()).all({ jobId: party.job.id });
}

/** One claim as the API and the pages show it; photos by their index, served to the parties and admins only. */
export function claimJson(claim: Claim): ClaimView {
  return {
    id: claim.id,
    jobId: claim.jobId,
    status: claim.status,
    reason: claim.reason,
    description: claim.description,
    photos: claim.photoKeys.map((_, i) => `/claims/${claim.id}/photos/${i}`),
    ownerResponse: claim.ownerResponse,
    offeredCents: claim.offeredCents,
    ownerMessage: claim.ownerMessage,
    escalatedBy: claim.escalatedBy,
    adminNote: claim.adminNote,
    refundCents: claim.refundCents,
    createdAt: claim.createdAt,
    answeredAt: claim.answeredAt,
    acceptedAt: claim.acceptedAt,
    escalatedAt: claim.escalatedAt,
    decidedAt: claim.decidedAt,
    resolvedAt: claim.resolvedAt,
  };
}

/** The order page's claim panel for its customer or owner, from the order as the page loaded it; null when the order isn't theirs. */
export async function claimPanelOf(
  view: Pick<OrderView, "job" | "printer">,
  userId: number,
  now = Date.now(),
): Promise<ClaimPanel | null> {
  const party = { job: view.job, ownerId: view.printer?.ownerId ?? null };
  const [list, refunds] = await Promise.all([claimsOfParty(party, userId), refundsOfJob(party.job.id)]);
  if (!list) return null;
  const closes = claimWindowEnd(party.job);
  const latest = list[0] ?? null;
  return {
    claim: latest ? claimJson(latest) : null,
    canReport:
      party.job.customerId === userId &&
      closes !== null &&
      now <= closes &&
      refunds.refundableCents > 0 &&
      !(latest && CLAIM_PENDING.includes(latest.status)),
    windowClosesAt: closes,
    ...refunds,
  };
}

/** The storage key of a claim photo for a party of its order or an admin; null otherwise. */
export async function claimPhotoKey(claimId: number, index: number, viewer: { id: number; isAdmin: boolean }) {
  const found = await claimFor(claimId, viewer.isAdmin ? "admin" : viewer.id);
  return found?.claim.photoKeys[index] ?? null;
}

/** The claims awaiting an admin, oldest first, with their order and what is left to refund (/admin/claims). */
export async function listEscalatedClaims() {
  const db = await getDb();
  const rows = await db
    .select({ claim: claims, fileName: printJobs.fileName, amountDueCents: printJobs.amountDueCents })
    .from(claims)
    .innerJoin(printJobs, eq(printJobs.id, claims.jobId))
    .where(eq(claims.status, "escalated"))
    .orderBy(claims.escalatedAt, claims.id);
  return Promise.all(
    rows.map(async (row) => ({
      claim: claimJson(row.claim),
      fileName: row.fileName,
      amountDueCents: row.amountDueCents,
      refundableCents: await refundableCents(row.claim.jobId),
    })),
  );
}
