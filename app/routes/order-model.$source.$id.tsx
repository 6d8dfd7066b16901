import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { draftFromModel, isModelSource, ModelOrderError } from "~/services/design-sources.server";
import { choosePrinterUrlFor } from "~/services/designs.server";
import { requireUser } from "~/utils/session.server";
import { redirectWithToast } from "~/utils/toast.server";

// Document 001's transient screen: prepare a draft from a model, then go on to printer choice.
// A GET does the work, as the model page links here; recent drafts of the same model are reused, so a reload makes no second one.

async function orderModel({ request, params }: LoaderFunctionArgs | ActionFunctionArgs) {
  const user = await requireUser(request);
  const source = params.source;
  const id = Number(params.id);
  if (!isModelSource(source) || !Number.isSafeInteger(id) || id <= 0) throw new Response("Not Found", { status: 404 });
  const modelPage = `/models/${source}/${id}`;
  try {
    const draft = await draftFromModel(user.id, source, id);
    return redirect(choosePrinterUrlFor(draft.id));
  } catch (error) {
    const message = error instanceof ModelOrderError ? error.message : "Failed to process order. Please try again.";
    if (!(error instanceof ModelOrderError)) console.error("order-model failed", error);
    return redirectWithToast(modelPage, { title: "Error", description: message, variant: "destructive" });
  }
}

export const loader = orderModel;
export const action = orderModel;

export default function OrderModel() {
  return (
    <div className="container-page py-16 text-center">
      <h1 className="text-xl font-semibold">Preparing your print…</h1>
    </div>
  );
}
