import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Form } from "~/components/form";
import { Link } from "~/components/link";
import { z } from "zod";
import { formatBytes } from "~/components/design-panels";
import { designPriceText } from "~/domain/price-range";
import { deleteDraft } from "~/services/designs/draft-writes.server";
import { draftPrices } from "~/services/designs/draft-prices.server";
import { choosePrinterUrlFor, draftPreviewUrl, listDrafts } from "~/services/designs/drafts.server";
import { LocalTime } from "~/components/local-time";
import { formatMinutes } from "~/domain/format";
import { requireUser } from "~/utils/session.server";
import { redirectWithToast } from "~/utils/toast.server";
import { formatGrams } from "~/domain/grams";
import { useIsPending } from "~/utils/misc-react";
import { invariantResponse } from "~/utils/misc";

const DeleteSchema = z.object({
  intent: z.literal("delete"),
  draftId: z.coerce.number().int().positive(),
});

export const meta: MetaFunction = () => [{ title: "Saved Prints | Printnear" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const drafts = await listDrafts(user.id);
  const prices = await draftPrices(drafts, user);
  return {
    drafts: drafts.map((d) => ({
      id: d.id,
      fileName: d.fileName,
      fileSize: d.fileSize,
      material: d.material,
      filamentColor: d.filamentColor,
      estimatedWeight: d.estimatedWeightGrams,
      printTimeMinutes: d.printTimeMinutes,
      numberOfColors: d.numberOfColors,
      quantity: d.quantity,
      price: designPriceText(prices.get(d.id)!),
      previewUrl: draftPreviewUrl(d),
      createdAt: d.createdAt.toISOString(),
      choosePrinterUrl: choosePrinterUrlFor(d.id),
    })),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const parsed = DeleteSchema.safeParse(Object.fromEntries(await request.formData()));
  invariantResponse(parsed.success, "Bad Request");
  // the query is scoped to this customer's drafts: anyone else's id finds nothing
  invariantResponse(await deleteDraft(user.id, parsed.data.draftId), "Draft not found", { status: 404 });
  return redirectWithToast("/saved-prints", { title: "Draft Deleted" });
}

export default function SavedPrints() {
  const { drafts } = useLoaderData<typeof loader>();
  return (
    <div className="container-page py-8">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold">Saved Prints</h1>
          <p className="text-slate-600">Designs you saved as drafts, ready to send to a printer.</p>
        </div>
        <Link to="/upload" className="btn-primary">
          Upload Design
        </Link>
      </div>

      {drafts.length === 0 ? (
        <div className="card mt-6 p-10 text-center text-slate-600">
          <p>No saved prints yet.</p>
          <Link to="/upload" className="btn-primary mt-4">
            Upload a design
          </Link>
        </div>
      ) : (
        <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {drafts.map((draft) => (
            <li key={draft.id} className="card flex flex-col overflow-hidden" data-testid="draft-card">
              <div className="flex h-40 items-center justify-center bg-stone-100">
                {draft.previewUrl ? (
                  <img
                    src={draft.previewUrl}
                    alt={`Preview of ${draft.fileName}`}
                    className="h-full w-auto object-contain"
                    loading="lazy"
                  />
                ) : (
                  <span className="text-sm text-slate-600">No preview</span>
                )}
              </div>
              <div className="flex flex-1 flex-col p-4">
                <h2 className="break-all font-medium" data-testid="draft-name">
                  {draft.fileName}
                </h2>
                <p className="text-sm text-slate-500">
                  {draft.material} · {draft.filamentColor} · {formatBytes(draft.fileSize)}
                </p>
                <dl className="mt-3 grid grid-cols-4 gap-2 text-sm">
                  <div>
                    <dt className="text-slate-500">Copies</dt>
                    <dd className="font-medium" data-testid="draft-quantity">
                      {draft.quantity}
                    </dd>
                  </div>
                  <div>
                    <dt className="text-slate-500">Weight</dt>
                    <dd className="font-medium" data-testid="draft-grams">
                      {formatGrams(draft.estimatedWeight)} g
                    </dd>
                  </div>
                  <div>
                    <dt className="text-slate-500">Time</dt>
                    <dd className="font-medium">{formatMinutes(draft.printTimeMinutes)}</dd>
                  </div>
                  <div>
                    <dt className="text-slate-500">Colors</dt>
                    <dd className="font-medium">{draft.numberOfColors}</dd>
                  </div>
                </dl>
                <p className="mt-3 text-sm font-semibold" data-testid="draft-price">
                  {draft.price}
                </p>
                <p className="text-sm text-slate-500">
                  Saved <LocalTime value={draft.createdAt} dateOnly />
                </p>
                <div className="mt-4 flex flex-wrap items-start gap-2">
                  <Link to={draft.choosePrinterUrl} className="btn-primary">
                    Choose Printer &amp; Submit
                  </Link>
                  <Link to={`/upload?draft=${draft.id}`} className="btn-secondary">
                    Edit
                  </Link>
                  <details className="relative">
                    <summary className="btn-ghost cursor-pointer text-red-700">Delete</summary>
                    <div className="absolute right-0 z-10 mt-2 w-64 rounded-md border border-slate-200 bg-white p-3 shadow-lg">
                      <p className="text-sm">Delete “{draft.fileName}”? This cannot be undone.</p>
                      <DeleteDraftForm draftId={draft.id} />
                    </div>
                  </details>
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function DeleteDraftForm({ draftId }: { draftId: number }) {
  const deleting = useIsPending({ state: "submitting", intent: "delete", values: { draftId } });
  return (
    <Form method="post" className="mt-3">
      <input type="hidden" name="intent" value="delete" />
      <input type="hidden" name="draftId" value={draftId} />
      <button type="submit" className="btn-danger w-full" disabled={deleting}>
        {deleting ? "Deleting…" : "Yes, delete draft"}
      </button>
    </Form>
  );
}
