// The design flow behind the upload page and the upload/draft API calls: a new draft from an uploaded file,
// or an edit of one of the customer's drafts (new settings, maybe a new file). Plain inputs, a plain result;
// anything that stops it is an AppError.
import type { PrintJob, User } from "../../../db/schema";
import { AppError } from "~/domain/app-error";
import { MESSAGES, type DesignIntent, type DesignSettings } from "~/domain/design-settings";
import type { IncomingFile } from "~/utils/streamed-form.server";
import { limitDesignUpload } from "./quotas.server";
import { createDraft, updateDraft, type NewDesignFile } from "./draft-writes.server";
import { getPrinterRate, type PrinterRate } from "./drafts.server";

export interface DesignSave {
  user: Pick<User, "id">;
  settings: DesignSettings;
  intent: DesignIntent;
  /** the uploaded file, on disk while it waits, if one came */
  file: IncomingFile | null;
  /** the draft being edited (/upload?draft=, PUT /api/drafts/{id}) */
  draft?: PrintJob | null;
}

export interface SavedDesign {
  job: PrintJob;
  /** a new draft (rather than an edit) */
  created: boolean;
  /** the size-based estimate stands in for the engine's reading */
  estimated: boolean;
}

/** Saves the design as a new draft or onto the given one. */
export async function saveDesign({ user, settings, intent, file: upload, draft }: DesignSave): Promise<SavedDesign> {
  if (!upload && !draft) {
    throw new AppError("invalid", intent === "save" ? MESSAGES.fileRequiredDraft : MESSAGES.fileRequiredUpload, {
      field: "file",
    });
  }

  let printer: PrinterRate | null = null;
  if (settings.printerId) {
    printer = await getPrinterRate(settings.printerId);
    if (!printer) throw new AppError("invalid", "That printer no longer exists. Please choose another one.");
    // an offline printer cannot be chosen, whatever the URL or the form says
    if (!printer.isAvailable) throw new AppError("invalid", MESSAGES.printerOffline);
  } else if (draft?.printerId) {
    // an edit that does not name a printer keeps the draft's
    printer = await getPrinterRate(draft.printerId);
  }

  let file: NewDesignFile | null = null;
  if (upload) {
    await limitDesignUpload(user.id);
    file = { path: upload.path, size: upload.size, fileName: upload.name };
  }

  if (draft) {
    const { job, design } = await updateDraft(draft, settings, { file, printer });
    return { job, created: false, estimated: design ? design.analysis.method === "file-size" : false };
  }
  const { job, design } = await createDraft(user.id, file!, settings, { printer, source: { kind: "upload", modelId: null } });
  return { job, created: true, estimated: design.analysis.method === "file-size" };
}
