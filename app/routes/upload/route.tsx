// /upload: a new design, or an edit of one of the customer's drafts (?draft=). The page posts a plain multipart
// form; with JavaScript the same form goes to the matching API call through XMLHttpRequest, for upload progress.
import type { SubmissionResult } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect, useLoaderData, type ClientActionFunctionArgs } from "@remix-run/react";
import { Link } from "~/components/link";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { MESSAGES, NEW_DESIGN_SETTINGS, type DesignAnalysis } from "~/domain/design-settings";
import { DEFAULT_RATE_PER_KG_CENTS } from "~/domain/pricing";
import { draftPreviewUrl, draftSettings, getOwnDraft, getPrinterRate, quoteDraft } from "~/services/designs/drafts.server";
import { draftNeeds } from "~/services/designs/draft-prices.server";
import { nearbyPrinterRates } from "~/services/printers/price-range.server";
import { invariantResponse, parseId } from "~/utils/misc";
import { requireUser } from "~/utils/session.server";
import { postWithProgress } from "./post-with-progress";
import { UploadForm } from "./upload-form";
import { setUploadProgress } from "./upload-progress";
import { designPageAnswer } from "./upload.server";

export const meta: MetaFunction = () => [{ title: "Upload Your 3D Design | Printnear" }];

async function draftFromUrl(userId: number, url: URL) {
  const param = url.searchParams.get("draft");
  if (param === null) return null;
  const id = parseId(param);
  const draft = id ? await getOwnDraft(userId, id) : null;
  // someone else's draft, or one already ordered, is simply not there
  invariantResponse(draft, "Draft not found", { status: 404 });
  return draft;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const draft = await draftFromUrl(user.id, url);
  const printerId = parseId(url.searchParams.get("printer")) ?? draft?.printerId ?? null;
  const named = printerId ? await getPrinterRate(printerId) : null;
  // an offline printer is refused, with a message, and the design is priced as if none were chosen
  const printerRefusal = named && !named.isAvailable ? MESSAGES.printerOffline : null;
  const printer = named?.isAvailable ? named : null;
  // before a printer is chosen: the rates of the printers near the customer that can print the design
  const nearbyRates = printer
    ? null
    : await nearbyPrinterRates(
        draft ? draftNeeds(draft) : { material: NEW_DESIGN_SETTINGS.material, color: NEW_DESIGN_SETTINGS.filamentColor },
        { zipCode: user.zipCode },
      );
  // the breakdown is priced at the chosen printer's rate, else at the lowest nearby one, else the platform default
  const ratePerKgCents =
    printer?.ratePerKgCents ??
    (nearbyRates && nearbyRates.rates.length > 0 ? Math.min(...nearbyRates.rates) : DEFAULT_RATE_PER_KG_CENTS);
  return {
    printerRefusal,
    nearbyRates,
    printer: printer ? { id: printer.id, name: printer.name, ratePerKgCents: printer.ratePerKgCents } : null,
    ratePerKgCents,
    settings: draft ? draftSettings(draft) : NEW_DESIGN_SETTINGS,
    draft: draft
      ? {
          id: draft.id,
          fileName: draft.fileName,
          fileSize: draft.fileSize,
          hasFile: Boolean(draft.fileKey),
          previewUrl: draftPreviewUrl(draft),
          analysis: (draft.analysis ?? null) as DesignAnalysis | null,
          quote: quoteDraft({
            weightGrams: draft.estimatedWeightGrams,
            numberOfColors: draft.numberOfColors,
            printTimeMinutes: draft.printTimeMinutes,
            quantity: draft.quantity,
            ratePerKgCents,
          }),
          estimatedWeight: draft.estimatedWeightGrams,
          printTimeMinutes: draft.printTimeMinutes,
          updatedAt: draft.updatedAt.toISOString(),
        }
      : null,
  };
}

export interface UploadActionData {
  result: SubmissionResult<string[]>;
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const draft = await draftFromUrl(user.id, new URL(request.url));
  return designPageAnswer(request, { user, draft });
}

export async function clientAction({ request }: ClientActionFunctionArgs): Promise<UploadActionData | Response> {
  const url = new URL(request.url);
  const formData = await request.formData();
  const draftId = url.searchParams.get("draft");
  const intent = formData.get("intent") === "submit" ? "submit" : "save";
  const endpoint = draftId
    ? `/api/drafts/${encodeURIComponent(draftId)}`
    : intent === "submit"
      ? "/api/upload-design"
      : "/api/save-draft";
  try {
    const answer = await postWithProgress(draftId ? "PUT" : "POST", endpoint, formData);
    if (answer.status >= 200 && answer.status < 300 && answer.body?.redirectTo) return redirect(answer.body.redirectTo);
    if (answer.status === 401) return redirect(`/auth?${new URLSearchParams({ redirectTo: `${url.pathname}${url.search}` })}`);
    const message =
      answer.body?.message ??
      (answer.status
        ? `Upload failed: ${answer.status} ${answer.statusText}`.trim()
        : "Upload failed: the connection was lost. Please try again.");
    const result: SubmissionResult<string[]> = answer.body?.result ?? {
      status: "error",
      initialValue: Object.fromEntries(
        [...formData.entries()].filter((entry): entry is [string, string] => typeof entry[1] === "string"),
      ),
      error: { "": [message] },
    };
    // the chosen file is still in the input here, so its error needs no "choose it again"
    const error = result.error?.file ? { ...result.error, file: [message] } : result.error;
    return { result: { ...result, error } };
  } finally {
    setUploadProgress(null);
  }
}

export default function UploadPage() {
  const { draft, printer } = useLoaderData<typeof loader>();
  // a save (new or updated draft) or another printer starts a fresh form, so no file stays in the input;
  // a refused post keeps the form as it is, chosen file included
  return <UploadForm key={`${draft?.id ?? "new"}:${draft?.updatedAt ?? ""}:${printer?.id ?? ""}`} />;
}

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        404: () => (
          <div className="container-page py-16 text-center">
            <h1 className="text-2xl font-bold">Draft not found</h1>
            <p className="mt-2 text-slate-600">
              This draft does not exist, has already been ordered, or belongs to someone else.
            </p>
            <Link to="/upload" className="btn-primary mt-6">
              Upload a design
            </Link>
          </div>
        ),
      }}
    />
  );
}
