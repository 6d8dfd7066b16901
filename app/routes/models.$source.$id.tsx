import { getFormProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import {
  Form,
  isRouteErrorResponse,
  Link,
  useActionData,
  useLoaderData,
  useLocation,
  useNavigation,
  useRouteError,
} from "@remix-run/react";
import { useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { ModelImage, formatCount } from "~/components/model-card";
import {
  COMMENT_MAX_LENGTH,
  CommentFormSchema as CommentSchema,
  RatingFormSchema as RatingSchema,
} from "~/components/model-feedback";
import { StarRatingDisplay, StarRatingInput } from "~/components/star-rating";
import { formatCents } from "~/domain/money";
import { PLATFORM_FEE_PERCENT } from "~/domain/pricing";
import {
  addComment,
  getModelDetail,
  isLibraryModelCreator,
  OWN_MODEL_RATING,
  getViewerState,
  modelEstimate,
  parseModelId,
  parseModelSource,
  rateModel,
  setLike,
} from "~/services/models.server";
import { formatDate, formatMinutes } from "~/utils/format";
import { getSessionUser, requireUser } from "~/utils/session.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.model.name} | Printnear` : "Model not found | Printnear" },
];

function notFound(): never {
  throw new Response("Model not found", { status: 404 });
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
  const source = parseModelSource(params.source);
  const id = parseModelId(params.id);
  if (!source || !id) notFound();
  const user = await getSessionUser(request);
  const { model, sync } = await getModelDetail(source, id, {
    countView: source === "library" && !isRepeatView(request),
    request,
  });
  if (!model) notFound();
  const viewer = user && source === "library" ? await getViewerState(id, user.id) : null;
  return {
    model,
    estimate: modelEstimate(model),
    viewer,
    signedIn: Boolean(user),
    catalogueUnavailable: sync === "unavailable",
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const source = parseModelSource(params.source);
  const id = parseModelId(params.id);
  if (!source || !id) notFound();
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "");
  const here = new URL(request.url).pathname;
  if (source !== "library") {
    return data({ intent, result: null, message: "Likes, comments and ratings are for library models only." }, { status: 400 });
  }

  if (intent === "like" || intent === "unlike") {
    const result = await setLike(id, user.id, intent === "like");
    if (!result) notFound();
    return redirect(here);
  }
  if (intent === "comment") {
    const submission = parseWithZod(formData, { schema: CommentSchema });
    if (submission.status !== "success") return data({ intent, result: submission.reply(), message: null }, { status: 400 });
    if (!(await addComment(id, user.id, submission.value.comment))) notFound();
    return redirectWithToast(here, { title: "Comment posted!" });
  }
  if (intent === "rate") {
    const submission = parseWithZod(formData, { schema: RatingSchema });
    if (submission.status !== "success") return data({ intent, result: submission.reply(), message: null }, { status: 400 });
    const { rating, review, hasPrinted } = submission.value;
    if (await isLibraryModelCreator(id, user.id))
      return redirectWithToast(here, { title: OWN_MODEL_RATING, variant: "destructive" });
    if (!(await rateModel(id, user.id, { rating, review, hasPrinted }))) notFound();
    return redirectWithToast(here, { title: "Rating submitted!" });
  }
  return data({ intent, result: null, message: "Unknown action." }, { status: 400 });
}

export default function ModelDetailPage() {
  const { model, estimate, signedIn, catalogueUnavailable } = useLoaderData<typeof loader>();
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
            <dl className="mt-4 space-y-2 text-sm" data-testid="price-estimate">
              <div className="flex justify-between">
                <dt className="text-slate-600">Material</dt>
                <dd>{formatCents(quote.materialCost)}</dd>
              </div>
              <div className="flex justify-between">
                <dt className="text-slate-600">Platform Fee ({PLATFORM_FEE_PERCENT}%)</dt>
                <dd>{formatCents(quote.platformFee)}</dd>
              </div>
              <div className="flex justify-between border-t border-slate-200 pt-2 text-base font-semibold">
                <dt>Estimated total</dt>
                <dd data-testid="estimate-total">{formatCents(quote.customerPays)}</dd>
              </div>
            </dl>
            <p className="mt-3 text-xs text-slate-500">
              {formatGrams(estimate.weightGrams)} g, {formatMinutes(estimate.printTimeMinutes)}, one colour, at the platform rate
              of {formatCents(quote.filamentCostPer1000g)}/kg
              {estimate.assumedWeight || estimate.assumedTime
                ? " (this model records no weight or print time, so typical values are used)"
                : ""}
              . The printer you choose sets the final price.
            </p>
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
                  {model.licenceRefusal}
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
              <InfoRow label="Uploaded" value={model.createdAt ? formatDate(model.createdAt) : "Unknown"} />
              <InfoRow label="Views" value={model.viewCount.toLocaleString("en-US")} />
            </dl>
          </section>
        </aside>
      </div>
    </div>
  );
}

function formatGrams(grams: number) {
  return Number.isInteger(grams) ? String(grams) : grams.toFixed(1);
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

function InfoRow({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex justify-between gap-4">
      <dt className="text-slate-600">{label}</dt>
      <dd className="text-right">{value}</dd>
    </div>
  );
}

function LibraryInteractions({ signedIn, signInHref }: { signedIn: boolean; signInHref: string }) {
  const { model, viewer } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const pendingIntent = navigation.state !== "idle" ? navigation.formData?.get("intent") : null;
  // the heart follows the click at once; the server's answer replaces it when the page reloads
  const liked = pendingIntent === "like" ? true : pendingIntent === "unlike" ? false : Boolean(viewer?.liked);

  return (
    <>
      <section className="flex flex-wrap items-center gap-3" aria-label="Like">
        {signedIn ? (
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value={liked ? "unlike" : "like"} />
            <button type="submit" className="btn-secondary" aria-pressed={liked} data-testid="like-button">
              <span aria-hidden="true" className={liked ? "text-red-600" : "text-slate-400"}>
                {liked ? "♥" : "♡"}
              </span>
              {liked ? "Liked" : "Like"}
            </button>
          </Form>
        ) : (
          <>
            <button type="button" className="btn-secondary" disabled data-testid="like-button">
              <span aria-hidden="true" className="text-slate-400">
                ♡
              </span>{" "}
              Like
            </button>
            <p className="text-sm text-slate-600">
              <Link to={signInHref} className="font-medium text-brand-700 underline">
                Sign in
              </Link>{" "}
              to like, comment on and rate this model.
            </p>
          </>
        )}
      </section>

      <section aria-labelledby="rating-title" className="card p-6">
        <h2 id="rating-title" className="text-lg font-semibold">
          Rate this model
        </h2>
        {signedIn ? (
          // a new key after each saved rating clears the form
          <RatingForm key={`${model.totalRatings}-${viewer?.rating?.rating ?? 0}-${viewer?.rating?.review ?? ""}`} />
        ) : (
          <p className="mt-2 text-sm text-slate-600">
            <Link to={signInHref} className="font-medium text-brand-700 underline">
              Sign in
            </Link>{" "}
            to rate this model.
          </p>
        )}
      </section>

      <section aria-labelledby="comments-title" className="card p-6">
        <h2 id="comments-title" className="text-lg font-semibold">
          Comments ({model.comments.length})
        </h2>
        {signedIn ? (
          <CommentForm key={model.comments[0]?.id ?? 0} />
        ) : (
          <p className="mt-2 text-sm text-slate-600">
            <Link to={signInHref} className="font-medium text-brand-700 underline">
              Sign in
            </Link>{" "}
            to join the conversation.
          </p>
        )}
        {model.comments.length === 0 ? (
          <p className="mt-4 text-sm text-slate-500">No comments yet.</p>
        ) : (
          <ul className="mt-4 divide-y divide-slate-100" data-testid="comments">
            {model.comments.map((c) => (
              <li key={c.id} className="py-3">
                <p className="text-sm">
                  <span className="font-medium">{c.authorName}</span>{" "}
                  <span className="text-slate-500">· {formatDate(c.createdAt)}</span>
                </p>
                <p className="mt-1 whitespace-pre-line text-slate-700">{c.comment}</p>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

function RatingForm() {
  const { viewer } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const pending = navigation.state !== "idle" && navigation.formData?.get("intent") === "rate";
  const [stars, setStars] = useState(viewer?.rating?.rating ?? 0);
  const [form, fields] = useForm({
    id: "rating",
    lastResult: actionData?.intent === "rate" ? actionData.result : undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RatingSchema }),
    shouldValidate: "onSubmit",
  });
  return (
    <Form method="post" preventScrollReset {...getFormProps(form)} className="mt-3 space-y-3">
      <input type="hidden" name="intent" value="rate" />
      <input type="hidden" name="hasPrinted" value="on" />
      <StarRatingInput
        name={fields.rating.name}
        defaultValue={viewer?.rating?.rating}
        onChange={setStars}
        legend={viewer?.rating ? "Your rating (you can change it)" : "Your rating"}
        error={fields.rating.errors?.[0]}
      />
      <div>
        <label htmlFor={fields.review.id} className="label">
          Review (optional)
        </label>
        <textarea
          {...getTextareaProps(fields.review)}
          defaultValue={viewer?.rating?.review ?? ""}
          rows={3}
          maxLength={COMMENT_MAX_LENGTH}
          className="input"
        />
        <p className="field-error">{fields.review.errors?.[0]}</p>
      </div>
      <button type="submit" className="btn-primary" disabled={hydrated && (stars === 0 || pending)}>
        {pending ? "Submitting..." : "Submit Rating"}
      </button>
    </Form>
  );
}

function CommentForm() {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const pending = navigation.state !== "idle" && navigation.formData?.get("intent") === "comment";
  const [text, setText] = useState("");
  const [form, fields] = useForm({
    id: "comment",
    lastResult: actionData?.intent === "comment" ? actionData.result : undefined,
    constraint: getZodConstraint(CommentSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CommentSchema }),
    shouldValidate: "onSubmit",
  });
  return (
    <Form method="post" preventScrollReset {...getFormProps(form)} noValidate className="mt-3 space-y-2">
      <input type="hidden" name="intent" value="comment" />
      <label htmlFor={fields.comment.id} className="sr-only">
        Your comment
      </label>
      <textarea
        {...getTextareaProps(fields.comment)}
        rows={3}
        placeholder="Share a tip or ask the creator a question..."
        className="input"
        onChange={(e) => setText(e.target.value)}
      />
      <p className="field-error">{fields.comment.errors?.[0]}</p>
      <button type="submit" className="btn-primary" disabled={hydrated && (text.trim() === "" || pending)}>
        {pending ? "Posting..." : "Post Comment"}
      </button>
    </Form>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  if (!notFound) console.error(error);
  return (
    <div className="container-page py-24 text-center">
      <h1 className="text-2xl font-semibold">{notFound ? "Model not found" : "Something went wrong"}</h1>
      <p className="mt-2 text-slate-600">
        {notFound
          ? "This model doesn't exist or is no longer available."
          : "We couldn't load this model right now. Please try again in a moment."}
      </p>
      <Link to="/models" className="btn-primary mt-8">
        Back to models
      </Link>
    </div>
  );
}
