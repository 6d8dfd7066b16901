// The order page's claim section: the latest claim and its answers, the customer's report form, the
// owner's answer form and the customer's accept or escalate buttons. Every form is a plain post to
// /order/{id}/claim with an intent, so it works without JavaScript; a refusal comes back as conform's result.
import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form } from "./form";
import {
  CLAIM_DESCRIPTION_MAX,
  CLAIM_MESSAGE_MAX,
  CLAIM_REASON_LABELS,
  CLAIM_REASONS,
  CLAIM_STATUS_LABELS,
  ClaimFormSchema,
  ClaimResponseFormSchema,
  MAX_CLAIM_PHOTOS,
  OWNER_RESPONSE_LABELS,
  OWNER_RESPONSES,
  type ClaimPanel,
  type ClaimView,
} from "~/domain/claims";
import { formatCents } from "~/domain/money";
import { ErrorList, Field } from "./forms";
import { LocalTime } from "./local-time";

export const CLAIM_INTENTS = {
  open: "open-claim",
  respond: "respond-claim",
  accept: "accept-claim",
  escalate: "escalate-claim",
} as const;

export interface ClaimActionData {
  intent: string;
  result: SubmissionResult<string[]>;
}

function ReportForm({ action, lastResult }: { action: string; lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useForm({
    id: "claim-report",
    lastResult,
    constraint: getZodConstraint(ClaimFormSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ClaimFormSchema }),
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" action={action} encType="multipart/form-data" {...getFormProps(form)} className="mt-3 space-y-3">
      <input type="hidden" name="intent" value={CLAIM_INTENTS.open} />
      <div>
        <label htmlFor={fields.reason.id} className="label">
          What went wrong?
        </label>
        <select {...getSelectProps(fields.reason)} className="input">
          <option value="">Choose…</option>
          {CLAIM_REASONS.map((reason) => (
            <option key={reason} value={reason}>
              {CLAIM_REASON_LABELS[reason]}
            </option>
          ))}
        </select>
        <ErrorList id={fields.reason.errorId} errors={fields.reason.errors} />
      </div>
      <div>
        <label htmlFor={fields.description.id} className="label">
          Description
        </label>
        <textarea {...getTextareaProps(fields.description)} maxLength={CLAIM_DESCRIPTION_MAX} className="input min-h-[80px]" />
        <ErrorList id={fields.description.errorId} errors={fields.description.errors} />
      </div>
      <Field
        labelProps={{ children: `Photos (up to ${MAX_CLAIM_PHOTOS}, JPEG, PNG or WebP, 5 MB each)` }}
        inputProps={{
          id: "claim-photos",
          name: "photos",
          type: "file",
          accept: "image/jpeg,image/png,image/webp",
          multiple: true,
        }}
        errors={lastResult?.error?.photos}
      />
      <ErrorList id={form.errorId} errors={form.errors} />
      <button type="submit" className="btn-primary">
        Report Problem
      </button>
    </Form>
  );
}

function AnswerForm({
  action,
  claimId,
  lastResult,
}: {
  action: string;
  claimId: number;
  lastResult?: SubmissionResult<string[]>;
}) {
  const [form, fields] = useForm({
    id: "claim-answer",
    lastResult,
    constraint: getZodConstraint(ClaimResponseFormSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ClaimResponseFormSchema }),
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" action={action} {...getFormProps(form)} className="mt-3 space-y-3">
      <input type="hidden" name="intent" value={CLAIM_INTENTS.respond} />
      <input type="hidden" name="claimId" value={claimId} />
      <fieldset>
        <legend className="label">Your answer</legend>
        {OWNER_RESPONSES.map((response) => (
          <label key={response} className="mr-4 inline-flex items-center gap-1 text-sm">
            <input
              type="radio"
              name={fields.action.name}
              value={response}
              defaultChecked={fields.action.initialValue === response}
            />
            {OWNER_RESPONSE_LABELS[response]}
          </label>
        ))}
        <ErrorList id={fields.action.errorId} errors={fields.action.errors} />
      </fieldset>
      <Field
        labelProps={{ children: "Amount to refund for a partial refund (dollars)" }}
        inputProps={{ ...getInputProps(fields.amount, { type: "text" }), inputMode: "decimal", placeholder: "4.50" }}
        errors={fields.amount.errors}
      />
      <div>
        <label htmlFor={fields.message.id} className="label">
          Message to the customer
        </label>
        <textarea {...getTextareaProps(fields.message)} maxLength={CLAIM_MESSAGE_MAX} className="input min-h-[60px]" />
        <ErrorList id={fields.message.errorId} errors={fields.message.errors} />
      </div>
      <ErrorList id={form.errorId} errors={form.errors} />
      <button type="submit" className="btn-primary">
        Send Answer
      </button>
    </Form>
  );
}

function ClaimDetails({ claim }: { claim: ClaimView }) {
  return (
    <dl className="mt-2 grid gap-2 text-sm">
      <div>
        <dt className="text-slate-500">Status</dt>
        <dd data-testid="claim-status">{CLAIM_STATUS_LABELS[claim.status]}</dd>
      </div>
      <div>
        <dt className="text-slate-500">Reported</dt>
        <dd>
          {CLAIM_REASON_LABELS[claim.reason]} · <LocalTime value={claim.createdAt} />
        </dd>
      </div>
      <div>
        <dt className="text-slate-500">Description</dt>
        <dd className="whitespace-pre-line">{claim.description}</dd>
      </div>
      {claim.photos.length ? (
        <div>
          <dt className="text-slate-500">Photos</dt>
          <dd className="flex flex-wrap gap-2">
            {claim.photos.map((src, i) => (
              <a key={src} href={src}>
                <img src={src} alt={`Claim photo ${i + 1}`} className="h-20 w-20 rounded object-cover" />
              </a>
            ))}
          </dd>
        </div>
      ) : null}
      {claim.ownerResponse ? (
        <div>
          <dt className="text-slate-500">Printer's answer</dt>
          <dd data-testid="claim-answer">
            {OWNER_RESPONSE_LABELS[claim.ownerResponse]}
            {claim.offeredCents ? ` of ${formatCents(claim.offeredCents)}` : ""}: {claim.ownerMessage}
          </dd>
        </div>
      ) : null}
      {claim.adminNote ? (
        <div>
          <dt className="text-slate-500">Printnear support's decision</dt>
          <dd data-testid="claim-decision">
            {claim.refundCents ? `Refund of ${formatCents(claim.refundCents)}` : "No refund"}: {claim.adminNote}
          </dd>
        </div>
      ) : null}
      {claim.status === "resolved" && claim.refundCents ? (
        <div>
          <dt className="text-slate-500">Refunded</dt>
          <dd data-testid="claim-refund">{formatCents(claim.refundCents)}</dd>
        </div>
      ) : null}
    </dl>
  );
}

export function OrderClaim({
  jobId,
  viewerRole,
  panel,
  actionData,
}: {
  jobId: number;
  viewerRole: "customer" | "owner";
  panel: ClaimPanel;
  actionData?: ClaimActionData | null;
}) {
  const action = `/order/${jobId}/claim`;
  const resultOf = (intent: string) => (actionData?.intent === intent ? actionData.result : undefined);
  const { claim } = panel;
  if (!claim && !panel.canReport) return null;
  return (
    <section id="claim" className="card p-4" aria-labelledby="claim-heading">
      <h2 id="claim-heading" className="font-semibold">
        {claim ? "Claim" : "Report a problem"}
      </h2>
      {claim ? <ClaimDetails claim={claim} /> : null}
      {viewerRole === "owner" && claim?.status === "open" ? (
        <AnswerForm action={action} claimId={claim.id} lastResult={resultOf(CLAIM_INTENTS.respond)} />
      ) : null}
      {viewerRole === "customer" && claim?.status === "answered" ? (
        <Form method="post" action={action} className="mt-3 flex flex-wrap gap-2">
          <input type="hidden" name="claimId" value={claim.id} />
          <button type="submit" name="intent" value={CLAIM_INTENTS.accept} className="btn-primary">
            Accept Answer
          </button>
          <button type="submit" name="intent" value={CLAIM_INTENTS.escalate} className="btn-secondary">
            Escalate to Printnear
          </button>
        </Form>
      ) : null}
      {panel.canReport ? (
        <>
          {claim ? <h3 className="mt-4 font-medium">Report another problem</h3> : null}
          <p className="mt-1 text-sm text-slate-600">
            Until <LocalTime value={panel.windowClosesAt} />
          </p>
          <ReportForm action={action} lastResult={resultOf(CLAIM_INTENTS.open)} />
        </>
      ) : null}
    </section>
  );
}
