import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { Form } from "~/components/form";
import { Link } from "~/components/link";
import { ErrorPage, GeneralErrorBoundary } from "~/components/error-boundary";
import { ModelImage, formatCount } from "~/components/model-card";
import { StarRatingDisplay } from "~/components/star-rating";
import { AppError } from "~/domain/app-error";
import { CommentFormSchema, RatingFormSchema } from "~/domain/model-feedback";
import { MODEL_NOT_FOUND, modelEstimate, parseModelSource } from "~/domain/models";
import { formatCents } from "~/domain/money";
import { PLATFORM_FEE_PERCENT } from "~/domain/pricing";
import { priceRangeText } from "~/domain/price-range";
import { DESIGN_DEFAULTS } from "~/domain/design-settings";
import { PRINT_DEFAULTS } from "~/domain/print-defaults";
import { designPriceRange } from "~/services/printers/price-range.server";
import { getModelDetail, getViewerState } from "~/services/models/detail.server";
import { addComment, deleteComment, rateModel, setLike } from "~/services/models/feedback.server";
import { isAppError, replyWithError } from "~/utils/app-error.server";
import { LocalTime } from "~/components/local-time";
import { formatMinutes, formatNumber } from "~/domain/format";
import { invariantResponse, parseId } from "~/utils/misc";
import { getSessionUser, requireUser, visitorOf } from "~/utils/session.server";
import { redirectWithToast } from "~/utils/toast.server";
import { parseWithZod } from "@conform-to/zod";
import { LibraryInteractions } from "./library-interactions";
import { formatGrams } from "~/domain/grams";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.model.name} | Printnear` : "Model not found | Printnear" },
];

/** The source and id of the URL, or a thrown 404. */
function modelParams(params: LoaderFunctionArgs["params"]) {
  const source = parseModelSource(params.source);
  const id = parseId(params.id);
  invariantResponse(source && id, MODEL_NOT_FOUND, { status: 404 });
  return { source, id };
}

/** A revalidation after a like, comment or rating comes from this same page and is not a new view. */
function isRepeatView(request: Request) {
  const referer = request.headers.get("referer");
  if (!referer) return false;
  try {
    return new URL(referer).pathname === new URL(request.url).pathname;
  } catch {
    return false;
  }
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { source, id } = modelParams(params);
  const user = await getSessionUser(request);
  const { model, sync } = await getModelDetail(source, id, {
    countView: source === "library" && !isRepeatView(request),
    visitor: await visitorOf(request),
  });
  invariantResponse(model, MODEL_NOT_FOUND, { status: 404 });
  const viewer = user && source === "library" ? await getViewerState(id, user.id) : null;
  const estimate = modelEstimate(model);
  // before a printer is chosen: what the printers near this customer that can print it would charge; a model
  // that cannot be ordered gets no price, its page says why instead
  const range = model.commercialUse
    ? await designPriceRange(
        {
          weightGrams: estimate.weightGrams,
          printTimeMinutes: estimate.printTimeMinutes,
          colors: estimate.colors,
          material: PRINT_DEFAULTS.material,
          // the colour the draft Order Print makes asks for, so this range is the one /upload shows for it
          color: DESIGN_DEFAULTS.filamentColor,
          // only printers whose build volume holds the model count, when its size is known
          size: model.size,
        },
        { zipCode: user?.zipCode },
      )
    : null;
  return {
    model,
    estimate,
    range,
    viewer,
    signedIn: Boolean(user),
    // who may delete comments: each comment's author, and admins
    viewerId: user?.id ?? null,
    isAdmin: Boolean(user?.isAdmin),
    catalogueUnavailable: sync === "unavailable",
  };
}

/** A refusal after a plain post (your own model, too many comments): the message is the toast's title. */
function refusal(here: string, error: AppError) {
  return redirectWithToast(here, { title: error.message, variant: "destructive" });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const { source, id } = modelParams(params);
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "");
  const here = new URL(request.url).pathname;
  try {
    if (source !== "library") throw new AppError("invalid", "Likes, comments and ratings are for library models only.");
    if (intent === "like" || intent === "unlike") {
      const result = await setLike(id, user.id, intent === "like");
      invariantResponse(result, MODEL_NOT_FOUND, { status: 404 });
      return redirect(here);
    }
    if (intent === "comment") {
      const submission = parseWithZod(formData, { schema: CommentFormSchema });
      if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
      try {
        invariantResponse(await addComment(id, user.id, submission.value.comment), MODEL_NOT_FOUND, { status: 404 });
      } catch (error) {
        if (!isAppError(error) || !error.field) throw error;
        return replyWithError(submission, error);
      }
      return redirectWithToast(here, { title: "Comment posted!" });
    }
    if (intent === "rate") {
      const submission = parseWithZod(formData, { schema: RatingFormSchema });
      if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
      const { rating, review, hasPrinted } = submission.value;
      invariantResponse(await rateModel(id, user.id, { rating, review, hasPrinted }), MODEL_NOT_FOUND, { status: 404 });
      return redirectWithToast(here, { title: "Rating submitted!" });
    }
    if (intent === "delete-comment") {
      const commentId = parseId(formData.get("commentId"));
      const deleted = commentId ? await deleteComment(id, commentId, user) : null;
      invariantResponse(deleted, "Comment not found", { status: 404 });
      return redirectWithToast(here, { title: "Comment deleted." });
    }
    throw new AppError("invalid", "Unknown action.");
  } catch (error) {
    if (isAppError(error)) return refusal(here, error);
    throw error;
  }
}

export default function ModelDetailPage() {
  const { model, estimate, range, signedIn, catalogueUnavailable } = useLoaderData<typeof loader>();
  const location = useLocation();
  const isLibrary = model.source === "library";
  const { quote } = estimate;
  const signInHref = `/auth?${new URLSearchParams({ redirectTo: location.pathname })}`;

  return (
    <div className="container-page py-8">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-500">
        <ol className="flex flex-wrap items-center gap-2">
          <li>
            <Link to={isLibrary ? "/models?tab=library" : "/models"} className="hover:text-slate-900">
              Models
            </Link>
          </li>
          <li aria-hidden="true">/</li>
          <li aria-current="page" className="text-slate-900">
            {model.name}
          </li>
        </ol>
      </nav>

      {catalogueUnavailable ? (
        <p role="status" className="mt-4 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Thingiverse isn't answering right now; this is the copy we saved earlier.
        </p>
      ) : null}

      <div className="mt-6 grid gap-8 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <div className="card aspect-[4/3] overflow-hidden bg-slate-100">
            <ModelImage src={model.imageUrls[0] ?? model.thumbnailUrl} alt={model.name} />
          </div>

          <div>
            <div className="flex flex-wrap gap-2">
              {model.featured ? <span className="badge bg-amber-100 text-amber-800">Featured</span> : null}
              {model.difficulty ? <span className="badge bg-brand-50 text-brand-700 capitalize">{model.difficulty}</span> : null}
              {model.supportRequired !== null ? (
                <span className="badge bg-slate-100 text-slate-700">
                  {model.supportRequired ? "Supports required" : "No supports needed"}
                </span>
              ) : null}
              <span className="badge bg-slate-100 text-slate-700">{model.license}</span>
              {!model.commercialUse ? <span className="badge bg-red-100 text-red-800">Non-commercial</span> : null}
            </div>
            <h1 className="mt-3 text-3xl font-bold tracking-tight">{model.name}</h1>
            <p className="mt-1 text-slate-600">
              by{" "}
              {model.creatorUrl ? (
                <a href={model.creatorUrl} className="underline hover:text-slate-900" rel="noopener noreferrer" target="_blank">
                  {model.creatorName}
                </a>
              ) : (
                model.creatorName
              )}
            </p>
            {isLibrary ? (
              <p className="mt-2 flex items-center gap-2 text-sm text-slate-600" data-testid="model-rating">
                <StarRatingDisplay value={model.averageRating} />
                {model.totalRatings > 0
                  ? `${model.averageRating} (${model.totalRatings} ${model.totalRatings === 1 ? "rating" : "ratings"})`
                  : "No ratings yet"}
              </p>
            ) : null}
          </div>

          <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
            <Fact label="Downloads" value={formatCount(model.downloadCount)} />
            <Fact label="Likes" value={formatCount(model.likeCount)} testId="like-count" />
            <Fact label="Print time" value={model.printTimeMinutes ? formatMinutes(model.printTimeMinutes) : "Not recorded"} />
            <Fact
              label="Filament"
              value={model.filamentWeightGrams ? `${formatGrams(model.filamentWeightGrams)} g` : "Not recorded"}
              testId="model-grams"
            />
          </dl>

          <section>
            <h2 className="text-lg font-semibold">Description</h2>
            <p className="mt-2 whitespace-pre-line text-slate-700">{model.description || "No description yet."}</p>
            {model.tags.length > 0 ? (
              <ul className="mt-3 flex flex-wrap gap-2" aria-label="Tags">
                {model.tags.map((tag) => (
                  <li key={tag} className="badge bg-slate-100 text-slate-600">
                    #{tag}
                  </li>
                ))}
              </ul>
            ) : null}
          </section>

          {isLibrary ? <LibraryInteractions signedIn={signedIn} signInHref={signInHref} /> : null}
        </div>

        <aside className="space-y-6">
          <section className="card p-6" aria-labelledby="print-card-title">
            <h2 id="print-card-title" className="text-lg font-semibold">
              Print this Model
            </h2>
            {range ? (
              <>
                <dl className="mt-4 space-y-2 text-sm" data-testid="price-estimate">
                  <div className="flex flex-col gap-1 text-base font-semibold">
                    <dt>Estimated total</dt>
                    <dd data-testid="estimate-total">{priceRangeText(range)}</dd>
                  </div>
                </dl>
                <p className="mt-3 text-xs text-slate-500">
                  {formatGrams(estimate.weightGrams)} g, {formatMinutes(estimate.printTimeMinutes)}, one colour,{" "}
                  {PRINT_DEFAULTS.material}
                  {range.kind === "platform"
                    ? `, at the platform rate of ${formatCents(quote.filamentCostPer1000g)}/kg`
                    : ", each printer at its own rate"}
                  {estimate.assumedWeight || estimate.assumedTime
                    ? " (this model records no weight or print time, so typical values are used)"
                    : ""}
                  ; the platform fee ({PLATFORM_FEE_PERCENT}%) is included. The printer you choose sets the final price.
                </p>
              </>
            ) : null}
            {model.commercialUse ? (
              // a post, not a link: ordering makes a draft, and a GET must not (prefetchers, other sites' links)
              <Form method="post" action={`/order-model/${model.source}/${model.id}`}>
                <button type="submit" className="btn-primary mt-4 w-full">
                  Order Print
                </button>
              </Form>
            ) : (
              <>
                <button type="button" disabled className="btn-primary mt-4 w-full" aria-describedby="licence-refusal">
                  Order Print
                </button>
                <p
                  id="licence-refusal"
                  className="mt-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800"
                  data-testid="licence-refusal"
                >
                  {model.licenseRefusal}
                </p>
              </>
            )}
            {isLibrary ? (
              model.file ? (
                <a href={`/models/library/${model.id}/download`} className="btn-secondary mt-3 w-full" download>
                  Download Files
                </a>
              ) : (
                <button type="button" disabled className="btn-secondary mt-3 w-full" title="The uploader has not attached a file">
                  Download Files
                </button>
              )
            ) : model.publicUrl ? (
              <a href={model.publicUrl} className="btn-secondary mt-3 w-full" target="_blank" rel="noopener noreferrer">
                Download Files <span className="sr-only">(opens Thingiverse)</span>
              </a>
            ) : null}
            {isLibrary && !model.file ? (
              <p className="mt-2 text-xs text-slate-500">No file has been uploaded for this model yet.</p>
            ) : null}
            {!isLibrary ? (
              <p className="mt-2 text-xs text-slate-500">Files download from the model's page on Thingiverse.</p>
            ) : null}
          </section>

          <section className="card p-6" aria-labelledby="info-card-title">
            <h2 id="info-card-title" className="text-lg font-semibold">
              Model Information
            </h2>
            <dl className="mt-4 space-y-2 text-sm">
              <InfoRow label="Category" value={model.category?.name ?? "Uncategorised"} />
              <InfoRow label="License" value={model.license} />
              <InfoRow label="Uploaded" value={model.createdAt ? <LocalTime value={model.createdAt} dateOnly /> : "Unknown"} />
              <InfoRow label="Views" value={formatNumber(model.viewCount)} />
            </dl>
          </section>
        </aside>
      </div>
    </div>
  );
}

function Fact({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="card p-3">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="mt-1 font-semibold" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function InfoRow({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div className="flex justify-between gap-4">
      <dt className="text-slate-600">{label}</dt>
      <dd className="text-right">{value}</dd>
    </div>
  );
}

const backToModels = (
  <Link to="/models" className="btn-primary">
    Back to models
  </Link>
);

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        404: () => (
          <ErrorPage heading="Model not found" message="This model doesn't exist or is no longer available.">
            {backToModels}
          </ErrorPage>
        ),
      }}
      unexpectedErrorHandler={() => (
        <ErrorPage heading="Something went wrong" message="We couldn't load this model right now. Please try again in a moment.">
          {backToModels}
        </ErrorPage>
      )}
    />
  );
}
