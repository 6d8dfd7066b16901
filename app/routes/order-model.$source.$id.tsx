import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData, useSubmit } from "@remix-run/react";
import { Form } from "~/components/form";
import { useEffect, useRef } from "react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { parseModelSource } from "~/domain/models";
import { draftFromModel } from "~/services/designs/sources.server";
import { choosePrinterUrlFor } from "~/services/designs/drafts.server";
import { getModelDetail } from "~/services/models/detail.server";
import { isAppError, toastOf } from "~/utils/app-error.server";
import { requireIdParam } from "~/utils/misc";
import { requireUser } from "~/utils/session.server";
import { redirectWithToast } from "~/utils/toast.server";
import { useIsPending } from "~/utils/misc-react";

// A transient screen: prepare a draft from a model, then go on to printer choice.
// Only a POST does the work (a draft, a download, an analysis): a GET from another site (cookies are
// SameSite=Lax, so they come along on a top-level GET) or a link prefetcher must not. The model page posts
// here directly; a GET (after signing in, a bookmark) shows a one-button form.

export const meta: MetaFunction = () => [{ title: "Preparing your order | Printnear" }];

function orderParams(params: LoaderFunctionArgs["params"]) {
  const source = parseModelSource(params.source);
  const id = requireIdParam(source ? params.id : undefined);
  return { source: source!, id };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  const { source, id } = orderParams(params);
  // a name for the screen from our own copy (no catalogue call, no view counted); nothing is made here
  const { model } = await getModelDetail(source, id, { sync: { source: null } });
  const modelName = model?.name ?? null;
  // The form submits itself only when this page was reached from our own pages (signing in, then here).
  // A navigation started on another site, or typed or opened from outside the browser, waits for a click:
  // that click is what a cross-site link cannot give.
  const autoSubmit = request.headers.get("sec-fetch-site") === "same-origin";
  return { source, id, modelName, autoSubmit };
}

async function orderModel({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const { source, id } = orderParams(params);
  const modelPage = `/models/${source}/${id}`;
  try {
    const draft = await draftFromModel(user.id, source, id);
    return redirect(choosePrinterUrlFor(draft.id));
  } catch (error) {
    if (isAppError(error)) return redirectWithToast(modelPage, toastOf(error, "Error"));
    console.error("order-model failed", error);
    return redirectWithToast(modelPage, {
      title: "Error",
      description: "Failed to process order. Please try again.",
      variant: "destructive",
    });
  }
}

export const action = orderModel;

export default function OrderModel() {
  const { source, id, modelName, autoSubmit } = useLoaderData<typeof loader>();
  const submit = useSubmit();
  const form = useRef<HTMLFormElement>(null);
  const submitted = useRef(false);
  const busy = useIsPending({ formAction: `/order-model/${source}/${id}` });

  useEffect(() => {
    if (!autoSubmit || submitted.current || !form.current) return;
    submitted.current = true;
    submit(form.current);
  }, [autoSubmit, submit]);

  return (
    <div className="container-page flex justify-center py-16">
      <div className="card w-full max-w-md p-8 text-center">
        <h1 className="text-xl font-semibold">Preparing your order</h1>
        <p className="mt-2 text-slate-600">
          {modelName ? (
            <>
              We will make a print draft of <span className="font-medium">{modelName}</span>, then you choose a printer.
            </>
          ) : (
            "We will make a print draft of this model, then you choose a printer."
          )}
        </p>
        <Form method="post" action={`/order-model/${source}/${id}`} ref={form} className="mt-6">
          <button type="submit" className="btn-primary w-full" disabled={busy}>
            {busy ? "Preparing your print…" : "Continue to printer choice"}
          </button>
        </Form>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
