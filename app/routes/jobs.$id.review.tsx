import { getFormProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Form } from "~/components/form";
import { Link } from "~/components/link";
import { ErrorPage, GeneralErrorBoundary } from "~/components/error-boundary";
import { ErrorList, TextareaField } from "~/components/forms";
import { StarRatingInput } from "~/components/star-rating";
import { isAppError } from "~/domain/app-error";
import { ReviewSchema } from "~/domain/review-schema";
import { REVIEW_MAX_LENGTH, REVIEW_SAVED_TOAST } from "~/domain/reviews";
import { getReviewContext, saveReview } from "~/services/printer-reviews.server";
import { replyWithError } from "~/utils/app-error.server";
import { useIsPending } from "~/utils/misc-react";
import { invariantResponse, requireIdParam } from "~/utils/misc";
import { requireUser } from "~/utils/session.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Rate your printer | Printnear" }];

const NOT_FOUND = "The order you're looking for doesn't exist or you don't have access to it.";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const context = await getReviewContext(requireIdParam(params.id, NOT_FOUND), user.id);
  invariantResponse(context, NOT_FOUND, { status: 404 });
  return { context };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const jobId = requireIdParam(params.id, NOT_FOUND);
  const submission = parseWithZod(await request.formData(), { schema: ReviewSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  try {
    const saved = await saveReview({ jobId, customerId: user.id, ...submission.value });
    return redirectWithToast(`/printers/${saved.printerId}#reviews`, {
      title: REVIEW_SAVED_TOAST,
      description: saved.edited ? "Your review was updated." : "Thank you for rating your printer.",
    });
  } catch (error) {
    invariantResponse(!isAppError(error) || error.code !== "not_found", NOT_FOUND, { status: 404 });
    if (isAppError(error)) return replyWithError(submission, error);
    throw error;
  }
}

export default function ReviewPage() {
  const { context } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const pending = useIsPending();
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    constraint: getZodConstraint(ReviewSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ReviewSchema }),
    shouldRevalidate: "onInput",
  });
  return (
    <div className="container-page max-w-xl py-8">
      <h1 className="text-2xl font-bold">Rate {context.printerName}</h1>
      <p className="text-slate-600">
        Your order: <span className="font-medium">{context.jobFileName}</span>
      </p>
      {context.refusal ? (
        <p className="mt-6 rounded-md border border-amber-200 bg-amber-50 p-4 text-amber-900" role="status">
          {context.refusal}
        </p>
      ) : (
        <Form method="post" {...getFormProps(form)} className="mt-6 flex flex-col gap-4">
          <StarRatingInput
            name={fields.rating.name}
            defaultValue={context.review?.rating ?? null}
            legend="Your rating"
            errorId={fields.rating.errorId}
            errors={fields.rating.errors}
          />
          <TextareaField
            labelProps={{ children: "Your review (optional)" }}
            textareaProps={{
              ...getTextareaProps(fields.review),
              defaultValue: context.review?.review ?? "",
              maxLength: REVIEW_MAX_LENGTH,
              className: "input min-h-[100px]",
              placeholder: "How was the print, the communication, the pickup or delivery?",
            }}
            errors={fields.review.errors}
          />
          <ErrorList id={form.errorId} errors={form.errors} />
          <div className="flex gap-3">
            <button type="submit" className="btn-primary" disabled={pending}>
              {context.review ? "Update Review" : "Submit Review"}
            </button>
            <Link to={`/printers/${context.printerId}`} className="btn-secondary">
              View printer
            </Link>
          </div>
        </Form>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        404: () => (
          <ErrorPage heading="Order Not Found" message={NOT_FOUND}>
            <Link to="/dashboard" className="btn-primary">
              My orders
            </Link>
          </ErrorPage>
        ),
      }}
    />
  );
}
