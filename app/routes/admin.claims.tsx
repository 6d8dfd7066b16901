// /admin/claims: claims escalated by the customer or left unanswered by the owner for 3 days; an admin
// decides a refund (0 up to what is left) with a note both parties see (decision 040).
import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Form } from "~/components/form";
import { Link } from "~/components/link";
import { ErrorList, Field } from "~/components/forms";
import { LocalTime } from "~/components/local-time";
import { isAppError } from "~/domain/app-error";
import {
  CLAIM_MESSAGE_MAX,
  CLAIM_REASON_LABELS,
  ClaimDecisionFormSchema,
  OWNER_RESPONSE_LABELS,
  type ClaimView,
} from "~/domain/claims";
import { formatCents } from "~/domain/money";
import { decideClaim, listEscalatedClaims } from "~/services/orders/claims.server";
import { requireAdmin } from "~/utils/admin.server";
import { replyWithError } from "~/utils/app-error.server";
import { parseId, resultForIntent } from "~/utils/misc";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Claims | Printnear" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return { claims: await listEscalatedClaims() };
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = await request.formData();
  const claimId = parseId(form.get("claimId"));
  if (form.get("intent") !== "decide" || !claimId) {
    return redirectWithToast("/admin/claims", { title: "Unknown action", variant: "destructive" });
  }
  const submission = parseWithZod(form, { schema: ClaimDecisionFormSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  try {
    const decided = await decideClaim({
      adminId: admin.id,
      claimId,
      refundCents: submission.value.refund,
      note: submission.value.note,
    });
    if (!decided) return redirectWithToast("/admin/claims", { title: "Claim not found", variant: "destructive" });
    return redirectWithToast("/admin/claims", {
      title: "Claim Decided",
      description: decided.refundCents ? `${formatCents(decided.refundCents)} refunded.` : "No refund.",
    });
  } catch (error) {
    if (!isAppError(error)) throw error;
    return replyWithError(submission, error);
  }
}

function DecideForm({
  claim,
  refundable,
  lastResult,
}: {
  claim: ClaimView;
  refundable: number;
  lastResult?: SubmissionResult<string[]>;
}) {
  const [form, fields] = useForm({
    id: `decide-${claim.id}`,
    lastResult,
    constraint: getZodConstraint(ClaimDecisionFormSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ClaimDecisionFormSchema }),
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="mt-3 space-y-3">
      <input type="hidden" name="intent" value="decide" />
      <input type="hidden" name="claimId" value={claim.id} />
      <Field
        labelProps={{ children: `Refund in dollars (0 for none, at most ${formatCents(refundable)})` }}
        inputProps={{ ...getInputProps(fields.refund, { type: "text" }), inputMode: "decimal" }}
        errors={fields.refund.errors}
      />
      <div>
        <label htmlFor={fields.note.id} className="label">
          Note to both parties
        </label>
        <textarea {...getTextareaProps(fields.note)} maxLength={CLAIM_MESSAGE_MAX} className="input min-h-[60px]" />
        <ErrorList id={fields.note.errorId} errors={fields.note.errors} />
      </div>
      <ErrorList id={form.errorId} errors={form.errors} />
      <button type="submit" className="btn-primary">
        Decide
      </button>
    </Form>
  );
}

export default function AdminClaims() {
  const { claims } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold">Claims</h1>
      {claims.length === 0 ? <p className="text-slate-600">No claims await a decision.</p> : null}
      {claims.map(({ claim, fileName, amountDueCents, refundableCents }) => (
        <section key={claim.id} className="card p-4" aria-labelledby={`claim-${claim.id}`} data-testid="admin-claim">
          <h2 id={`claim-${claim.id}`} className="font-semibold">
            Claim #{claim.id} on <Link to={`/admin/orders/${claim.jobId}`}>order #{claim.jobId}</Link> ({fileName},{" "}
            {formatCents(amountDueCents)})
          </h2>
          <p className="text-sm text-slate-600">
            {CLAIM_REASON_LABELS[claim.reason]} · reported <LocalTime value={claim.createdAt} /> ·{" "}
            {claim.escalatedBy === "unanswered" ? "unanswered by the printer for 3 days" : "escalated by the customer"}
          </p>
          <p className="mt-2 whitespace-pre-line text-sm">{claim.description}</p>
          {claim.photos.length ? (
            <div className="mt-2 flex flex-wrap gap-2">
              {claim.photos.map((src, i) => (
                <a key={src} href={src}>
                  <img src={src} alt={`Claim photo ${i + 1}`} className="h-20 w-20 rounded object-cover" />
                </a>
              ))}
            </div>
          ) : null}
          {claim.ownerResponse ? (
            <p className="mt-2 text-sm">
              Printer's answer: {OWNER_RESPONSE_LABELS[claim.ownerResponse]}
              {claim.offeredCents ? ` of ${formatCents(claim.offeredCents)}` : ""}: {claim.ownerMessage}
            </p>
          ) : null}
          <DecideForm
            claim={claim}
            refundable={refundableCents}
            lastResult={resultForIntent(actionData?.result, "decide", { claimId: claim.id })}
          />
        </section>
      ))}
    </div>
  );
}
