// The HTTP side of posting a design, shared by the upload page and the upload/draft API calls: read the
// streamed form, check the settings with conform, run the design flow, and answer as a page or as JSON.
import { parseWithZod } from "@conform-to/zod";
import type { SubmissionResult } from "@conform-to/react";
import { data } from "@remix-run/node";
import type { PrintJob, User } from "../../../db/schema";
import { isAppError, type AppError } from "~/domain/app-error";
import {
  designFailureTitle,
  DesignSettingsSchema,
  flattenPrintSettings,
  MESSAGES,
  qualityForLayerHeight,
  type DesignAnalysis,
  type DesignIntent,
} from "~/domain/design-settings";
import { centsToDollarString } from "~/domain/money";
import { saveDesign } from "~/services/designs/save.server";
import { draftPreviewUrl, printersUrlFor } from "~/services/designs/drafts.server";
import { formStatusOf, httpStatusOf, retryHeaders } from "~/utils/app-error.server";
import { createToastHeader, redirectWithToast, type ToastInput } from "~/utils/toast.server";
import { FILE_FIELD, readDesignForm, type DesignForm } from "./design-form.server";

export interface DesignPostOptions {
  user: User;
  /** the draft being edited (/upload?draft=, PUT /api/drafts/{id}) */
  draft?: PrintJob | null;
  /** an API endpoint fixes the intent; the page takes the pressed button's */
  intent?: DesignIntent;
}

type DesignPostOutcome =
  | { ok: true; job: PrintJob; created: boolean; redirectTo: string; toast: ToastInput }
  | { ok: false; error: AppError | null; title: string; message: string; result: SubmissionResult<string[]> };

function destination(job: PrintJob, intent: DesignIntent, created: boolean, estimated: boolean) {
  const warning: ToastInput = { title: MESSAGES.analysisWarningTitle, description: MESSAGES.analysisWarning };
  if (intent === "save") {
    return {
      redirectTo: `/upload?draft=${job.id}`,
      toast: estimated
        ? warning
        : created
          ? { title: "Draft Saved", description: "Your design has been saved as a draft. You can continue working on it later." }
          : { title: "Draft Updated" },
    };
  }
  if (job.printerId) {
    return {
      redirectTo: `/submit-print?printerId=${job.printerId}&draftId=${job.id}`,
      toast: estimated ? warning : { title: "Design Uploaded Successfully" },
    };
  }
  return {
    redirectTo: printersUrlFor(job),
    toast: estimated
      ? warning
      : { title: "Design Uploaded Successfully", description: "Searching for compatible printers in your area..." },
  };
}

const FILE_REQUIRED: readonly string[] = [MESSAGES.fileRequiredDraft, MESSAGES.fileRequiredUpload];

async function postDesign(request: Request, options: DesignPostOptions): Promise<DesignPostOutcome> {
  const form = await readDesignForm(request);
  try {
    return await settle(form, options);
  } finally {
    // the incoming file is removed on every way out (storing it made a copy)
    await form.discard();
  }
}

async function settle(form: DesignForm, options: DesignPostOptions): Promise<DesignPostOutcome> {
  const { user, draft } = options;
  const fields = flattenPrintSettings(form.fields);
  const submission = parseWithZod(fields, { schema: DesignSettingsSchema });
  const postedIntent = fields.get("intent") === "submit" ? "submit" : "save";
  const intent = options.intent ?? (submission.status === "success" ? submission.value.intent : postedIntent);
  const title = designFailureTitle(intent, Boolean(draft));

  /** A file error sits under the file input and says what happens to the file; anything else is a form error. */
  const refused = (error: AppError): DesignPostOutcome => {
    if (FILE_REQUIRED.includes(error.message)) {
      const result = submission.reply({ fieldErrors: { [FILE_FIELD]: [error.message] } });
      return { ok: false, error, title: MESSAGES.fileRequiredTitle, message: error.message, result };
    }
    const hint = draft?.fileKey ? MESSAGES.keepsFile : MESSAGES.chooseAgain;
    const result =
      error.field === FILE_FIELD
        ? submission.reply({ fieldErrors: { [FILE_FIELD]: [`${error.message} ${hint}`] } })
        : submission.reply({ formErrors: [error.message] });
    return { ok: false, error, title, message: error.message, result };
  };

  if (form.error) return refused(form.error);
  if (submission.status !== "success") {
    const first = Object.values(submission.error ?? {}).flat()[0] ?? "Please check the print settings.";
    return { ok: false, error: null, title, message: first, result: submission.reply() };
  }
  try {
    const saved = await saveDesign({ user, draft, intent, settings: submission.value, file: form.file });
    return {
      ok: true,
      job: saved.job,
      created: saved.created,
      ...destination(saved.job, intent, saved.created, saved.estimated),
    };
  } catch (error) {
    if (isAppError(error)) return refused(error);
    throw error;
  }
}

/** The upload page's answer: on to the next page with a toast, or the form again with what was typed. */
export async function designPageAnswer(request: Request, options: DesignPostOptions) {
  const outcome = await postDesign(request, options);
  if (outcome.ok) return redirectWithToast(outcome.redirectTo, outcome.toast);
  // the page draws its alert from the result (designAlertOf), as the API's title and message say it
  const status = outcome.error ? formStatusOf(outcome.error) : 400;
  return data({ result: outcome.result }, { status, headers: outcome.error ? retryHeaders(outcome.error) : undefined });
}

/** The JSON answer of the upload and draft API calls; a success also flashes the page's toast for the next page a browser shows. */
export async function designApiAnswer(request: Request, options: DesignPostOptions): Promise<Response> {
  const outcome = await postDesign(request, options);
  if (!outcome.ok) {
    const status = outcome.error ? httpStatusOf(outcome.error) : 400;
    const headers = outcome.error ? retryHeaders(outcome.error) : undefined;
    return Response.json({ title: outcome.title, message: outcome.message, result: outcome.result }, { status, headers });
  }
  const { job } = outcome;
  return Response.json(
    {
      jobId: job.id,
      draftId: job.id,
      status: job.status,
      totalCost: centsToDollarString(job.totalCostCents),
      totalCostCents: job.totalCostCents,
      estimatedWeight: job.estimatedWeightGrams,
      printTimeMinutes: job.printTimeMinutes,
      quantity: job.quantity,
      units: job.units,
      scalePercent: job.scalePercent,
      analysisMethod: (job.analysis as DesignAnalysis | null)?.method ?? null,
      redirectTo: outcome.redirectTo,
      toast: outcome.toast,
    },
    { status: outcome.created ? 201 : 200, headers: { "set-cookie": await createToastHeader(outcome.toast) } },
  );
}

/** A draft as the API answers it (money also in cents, which is what the app stores). */
export function draftJson(job: PrintJob) {
  return {
    id: job.id,
    status: job.status,
    fileName: job.fileName,
    fileSize: job.fileSize,
    fileFormat: job.fileFormat,
    material: job.material,
    filamentColor: job.filamentColor,
    estimatedWeight: job.estimatedWeightGrams,
    numberOfColors: job.numberOfColors,
    printTimeMinutes: job.printTimeMinutes,
    quantity: job.quantity,
    units: job.units,
    scalePercent: job.scalePercent,
    totalCost: centsToDollarString(job.totalCostCents),
    totalCostCents: job.totalCostCents,
    printerProfitCents: job.printerProfitCents,
    platformFeeCents: job.platformFeeCents,
    printerId: job.printerId,
    deliveryMethod: job.deliveryMethod,
    specialInstructions: job.specialInstructions ?? "",
    printSettings: {
      quality: job.quality ?? qualityForLayerHeight(job.layerHeight),
      layerHeight: job.layerHeight,
      infill: job.infillPercent,
      supports: job.supports,
      numberOfColors: job.numberOfColors,
      printTimeMinutes: job.printTimeMinutes,
    },
    boundingBox:
      job.boundingBoxX !== null && job.boundingBoxY !== null && job.boundingBoxZ !== null
        ? { x: job.boundingBoxX, y: job.boundingBoxY, z: job.boundingBoxZ }
        : null,
    analysis: (job.analysis ?? null) as DesignAnalysis | null,
    previewUrl: draftPreviewUrl(job),
    sourceKind: job.sourceKind,
    sourceModelId: job.sourceModelId,
    createdAt: job.createdAt.toISOString(),
    updatedAt: job.updatedAt.toISOString(),
  };
}

/** The short form GET /api/users/{id}/drafts lists. */
export function draftSummaryJson(job: PrintJob) {
  return {
    id: job.id,
    fileName: job.fileName,
    material: job.material,
    estimatedWeight: job.estimatedWeightGrams,
    fileSize: job.fileSize,
    totalCost: centsToDollarString(job.totalCostCents),
    totalCostCents: job.totalCostCents,
    numberOfColors: job.numberOfColors,
    printTimeMinutes: job.printTimeMinutes,
    quantity: job.quantity,
    previewUrl: draftPreviewUrl(job),
    createdAt: job.createdAt.toISOString(),
  };
}
