// The library model page's likes, rating form and comments: plain forms that post to the page's action.
import { getFormProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Form } from "~/components/form";
import { Link } from "~/components/link";
import { useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { StarRatingInput } from "~/components/star-rating";
import {
  COMMENT_MAX_LENGTH,
  CommentFormSchema as CommentSchema,
  RatingFormSchema as RatingSchema,
} from "~/domain/model-feedback";
import { LocalTime } from "~/components/local-time";
import type { action, loader } from "./route";
import { useIsPending } from "~/utils/misc-react";
import { TextareaField } from "~/components/forms";
import { resultForIntent } from "~/utils/misc";

export function LibraryInteractions({ signedIn, signInHref }: { signedIn: boolean; signInHref: string }) {
  const { model, viewer, viewerId, isAdmin } = useLoaderData<typeof loader>();
  const liking = useIsPending({ intent: "like" });
  const unliking = useIsPending({ intent: "unlike" });
  // the heart follows the click at once; the server's answer replaces it when the page reloads
  const liked = liking ? true : unliking ? false : Boolean(viewer?.liked);

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
                  <span className="text-slate-500">
                    · <LocalTime value={c.createdAt} dateOnly />
                  </span>
                </p>
                <p className="mt-1 whitespace-pre-line text-slate-700">{c.comment}</p>
                {isAdmin || (viewerId !== null && c.userId === viewerId) ? <DeleteComment commentId={c.id} /> : null}
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
  const hydrated = useHydrated();
  const pending = useIsPending({ intent: "rate" });
  const [stars, setStars] = useState(viewer?.rating?.rating ?? 0);
  const [form, fields] = useForm({
    id: "rating",
    lastResult: resultForIntent(actionData?.result, "rate"),
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
        errorId={fields.rating.errorId}
        errors={fields.rating.errors}
      />
      <TextareaField
        labelProps={{ children: "Review (optional)" }}
        textareaProps={{
          ...getTextareaProps(fields.review),
          defaultValue: viewer?.rating?.review ?? "",
          rows: 3,
          maxLength: COMMENT_MAX_LENGTH,
        }}
        errors={fields.review.errors}
      />
      <button type="submit" className="btn-primary" disabled={hydrated && (stars === 0 || pending)}>
        {pending ? "Submitting..." : "Submit Rating"}
      </button>
    </Form>
  );
}

function CommentForm() {
  const actionData = useActionData<typeof action>();
  const hydrated = useHydrated();
  const pending = useIsPending({ intent: "comment" });
  const [text, setText] = useState("");
  const [form, fields] = useForm({
    id: "comment",
    lastResult: resultForIntent(actionData?.result, "comment"),
    constraint: getZodConstraint(CommentSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CommentSchema }),
    shouldValidate: "onSubmit",
  });
  return (
    <Form method="post" preventScrollReset {...getFormProps(form)} noValidate className="mt-3 space-y-2">
      <input type="hidden" name="intent" value="comment" />
      <TextareaField
        labelProps={{ children: "Your comment", className: "sr-only" }}
        textareaProps={{
          ...getTextareaProps(fields.comment),
          rows: 3,
          placeholder: "Share a tip or ask the creator a question...",
          onChange: (e) => setText(e.target.value),
        }}
        errors={fields.comment.errors}
      />
      <button type="submit" className="btn-primary" disabled={hydrated && (text.trim() === "" || pending)}>
        {pending ? "Posting..." : "Post Comment"}
      </button>
    </Form>
  );
}

/** Deleting asks first, without JavaScript too: the button sits inside a <details> confirmation. */
function DeleteComment({ commentId }: { commentId: number }) {
  const pending = useIsPending({ intent: "delete-comment", values: { commentId } });
  return (
    <details className="mt-1 text-sm" data-testid="delete-comment">
      <summary className="cursor-pointer text-slate-500 hover:text-red-700">Delete</summary>
      <Form method="post" preventScrollReset className="mt-2 flex flex-wrap items-center gap-2">
        <input type="hidden" name="intent" value="delete-comment" />
        <input type="hidden" name="commentId" value={commentId} />
        <span className="text-slate-700">Delete this comment? This cannot be undone.</span>
        <button type="submit" className="btn-secondary text-red-700" disabled={pending}>
          {pending ? "Deleting..." : "Delete comment"}
        </button>
      </Form>
    </details>
  );
}
