// /order/{id}/claim: where the order page's claim forms post (intent: open, respond, accept, escalate).
// A success goes back to the order with a toast; a refused form is shown again here with conform's result.
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Link } from "~/components/link";
import { ORDER_NOT_FOUND_TEXT, OrderErrorBoundary } from "~/components/order-not-found";
import { CLAIM_INTENTS, OrderClaim } from "~/components/order-claim";
import { isAppError, type AppError } from "~/domain/app-error";
import { ClaimFormSchema, ClaimResponseFormSchema } from "~/domain/claims";
import { acceptClaimAnswer, claimPanelOf, escalateClaim, openClaim, respondToClaim } from "~/services/orders/claims.server";
import { getOrderForViewer } from "~/services/orders/jobs.server";
import { formStatusOf, replyWithError, retryHeaders, toastOf } from "~/utils/app-error.server";
import { invariantResponse, parseId, requireIdParam } from "~/utils/misc";
import { requireUser } from "~/utils/session.server";
import { redirectWithToast } from "~/utils/toast.server";
import { claimPhotos, claimPoster, readClaimForm, type ClaimForm } from "./claims.server";

export const meta: MetaFunction = () => [{ title: "Order claim | Printnear" }];

const NOT_FOUND = ORDER_NOT_FOUND_TEXT;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const id = requireIdParam(params.id, NOT_FOUND);
  const view = await getOrderForViewer(id, user.id);
  const panel = view ? await claimPanelOf(view, user.id) : null;
  invariantResponse(view && panel, NOT_FOUND, { status: 404 });
  return { jobId: id, fileName: view.job.fileName, viewerRole: view.viewerRole, panel };
}

/** A form the claim form's body parser refused (too many or too large photos, a broken body). */
function refusedBody(intent: string, error: AppError) {
  const field = error.field ?? "";
  const result = { status: "error" as const, error: { [field]: [error.message] } };
  return data({ intent, result }, { status: formStatusOf(error), headers: retryHeaders(error) });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const id = requireIdParam(params.id, NOT_FOUND);
  const back = `/order/${id}#claim`;
  // the order is checked before a byte of the body is read; only a customer who may report a problem sends photos
  const poster = await claimPoster(id, user.id);
  invariantResponse(poster, NOT_FOUND, { status: 404 });
  let read: ClaimForm;
  try {
    read = await readClaimForm(request, { photos: poster.photos });
  } catch (error) {
    if (isAppError(error)) return refusedBody(CLAIM_INTENTS.open, error);
    throw error;
  }
  try {
    return await claimAction(read.form, user, id, back);
  } finally {
    await read.discard();
  }
}

/** The posted intent's step, once the form has arrived. */
async function claimAction(form: FormData, user: { id: number }, id: number, back: string) {
  const intent = String(form.get("intent") ?? "");
  if (intent === CLAIM_INTENTS.open) {
    const submission = parseWithZod(form, { schema: ClaimFormSchema });
    if (submission.status !== "success") return data({ intent, result: submission.reply() }, { status: 400 });
    try {
      const done = await openClaim({ customerId: user.id, jobId: id, ...submission.value, photos: claimPhotos(form) });
      invariantResponse(done, NOT_FOUND, { status: 404 });
      return redirectWithToast(back, { title: "Problem Reported", description: "The printer's owner has been told." });
    } catch (error) {
      if (isAppError(error)) return refusedForm(intent, submission, error);
      throw error;
    }
  }
  if (intent === CLAIM_INTENTS.respond) {
    const submission = parseWithZod(form, { schema: ClaimResponseFormSchema });
    if (submission.status !== "success") return data({ intent, result: submission.reply() }, { status: 400 });
    try {
      const { amount, ...answer } = submission.value;
      const done = await respondToClaim({
        userId: user.id,
        claimId: parseId(form.get("claimId")) ?? 0,
        ...answer,
        amountCents: amount,
      });
      invariantResponse(done, NOT_FOUND, { status: 404 });
      return redirectWithToast(back, { title: "Answer Sent", description: "The customer has been told." });
    } catch (error) {
      if (isAppError(error)) return refusedForm(intent, submission, error);
      throw error;
    }
  }
  if (intent === CLAIM_INTENTS.accept || intent === CLAIM_INTENTS.escalate) {
    const step = intent === CLAIM_INTENTS.accept ? acceptClaimAnswer : escalateClaim;
    const title = intent === CLAIM_INTENTS.accept ? "Answer Accepted" : "Claim Escalated";
    try {
      const done = await step({ userId: user.id, claimId: parseId(form.get("claimId")) ?? 0 });
      invariantResponse(done, NOT_FOUND, { status: 404 });
      return redirectWithToast(back, { title });
    } catch (error) {
      if (isAppError(error)) return redirectWithToast(back, toastOf(error, "The claim was not changed"));
      throw error;
    }
  }
  return redirectWithToast(back, { title: "Unknown action", variant: "destructive" });
}

/** replyWithError's answer, naming the form it is for (the page holds several). */
function refusedForm(intent: string, submission: Parameters<typeof replyWithError>[0], error: AppError) {
  const reply = replyWithError(submission, error);
  return data({ intent, ...reply.data }, reply.init ?? undefined);
}

export default function OrderClaimPage() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="container-page max-w-2xl space-y-4 py-8">
      <Link to={`/order/${d.jobId}`} className="text-sm text-brand-700 hover:underline">
        ← Back to order #{d.jobId}
      </Link>
      <h1 className="text-2xl font-bold">
        Order #{d.jobId}: {d.fileName}
      </h1>
      <OrderClaim jobId={d.jobId} viewerRole={d.viewerRole} panel={d.panel} actionData={actionData} />
    </div>
  );
}

export const ErrorBoundary = OrderErrorBoundary;
