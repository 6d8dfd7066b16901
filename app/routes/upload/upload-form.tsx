// The upload page's form: file input with drop zone, the browser's live analysis and price, and the print settings.
// It posts the same multipart form with JavaScript off; with it on, the route's clientAction adds upload progress.
import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Form } from "~/components/form";
import { Link } from "~/components/link";
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type DragEvent } from "react";
import { AnalysisResults, AnalysisWarning, formatBytes, PricingBreakdown } from "~/components/design-panels";
import { DesignSettingsFields } from "~/components/design-settings";
import { ErrorList } from "~/components/forms";
import type { ViewerMesh } from "~/components/design-viewer";
import {
  DESIGN_EXTENSIONS,
  designAlertOf,
  designFailureTitle,
  DesignSettingsSchema,
  extensionAllowed,
  MAX_DESIGN_BYTES,
  MESSAGES,
  REFUSED_MESH_ERRORS,
  type DesignSettingsInput,
} from "~/domain/design-settings";
import { COLOR_SWATCHES, type ColorName } from "~/domain/materials";
import { estimateFromFileSize } from "~/domain/mesh/fallback";
import type { DesignScale } from "~/domain/design-scale";
import type { AnalysisOptions, MeshFormat, SupportsMode } from "~/domain/mesh/types";
import { useIsPending } from "~/utils/misc-react";
import type { loader, UploadActionData } from "./route";
import { designChoices, engineOptions, shownDesign, type LiveAnalysis } from "./shown-design";
import { useAnalysisWorker } from "./use-analysis-worker";
import { UploadProgressBar } from "./upload-progress-bar";
// three.js only loads here, after a model has been read
const DesignViewer = lazy(() => import("~/components/design-viewer"));

export function UploadForm() {
  const { draft, printer, printerRefusal, settings, ratePerKgCents, nearbyRates } = useLoaderData<typeof loader>();
  const actionData = useActionData<UploadActionData>();
  const busy = useIsPending();

  const [form, fields] = useForm<DesignSettingsInput>({
    id: "design-upload",
    lastResult: actionData?.result,
    defaultValue: settings,
    constraint: getZodConstraint(DesignSettingsSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: DesignSettingsSchema }),
    shouldValidate: "onSubmit",
  });

  const fileInput = useRef<HTMLInputElement>(null);
  const [live, setLive] = useState<LiveAnalysis>({ status: "idle" });
  const [viewerMesh, setViewerMesh] = useState<ViewerMesh | null>(null);
  const [chosen, setChosen] = useState(false);
  const [clientAlert, setClientAlert] = useState<{ title: string; message: string } | null>(null);
  const [dragging, setDragging] = useState(false);
  const requestId = useRef(0);
  const fileMeta = useRef({ fileName: "", fileSize: 0, fromDraft: false });

  const material = String(fields.material.value ?? settings.material);
  const infill = Number(fields.infill.value ?? settings.infill);
  const layerHeight = Number(fields.layerHeight.value ?? settings.layerHeight);
  const supports = (fields.supports.value ?? settings.supports) as SupportsMode;
  const numberOfColors = Number(fields.numberOfColors.value ?? settings.numberOfColors) || 1;
  const filamentColor = String(fields.filamentColor.value ?? settings.filamentColor) as ColorName;
  const choices = designChoices(fields, settings);
  const { units, scalePercent } = choices.scale;
  const options: AnalysisOptions & DesignScale = useMemo(
    () => ({ material, infill, layerHeight, supports, units, scalePercent }),
    [material, infill, layerHeight, supports, units, scalePercent],
  );

  const post = useAnalysisWorker((reply) => {
    if (reply.id !== requestId.current) return;
    const { fileName, fileSize } = fileMeta.current;
    if (reply.ok) {
      if (reply.mesh) setViewerMesh(reply.mesh);
      setLive({ status: "done", fileName, fileSize, analysis: { method: "mesh", ...reply.analysis } });
      // a multicolour 3MF sets the colour count once, when it is first chosen
      if (!fileMeta.current.fromDraft && reply.mesh && reply.analysis.numberOfColors > 1) {
        form.update({ name: fields.numberOfColors.name, value: String(Math.min(8, reply.analysis.numberOfColors)) });
      }
      return;
    }
    if (fileMeta.current.fromDraft) {
      // the draft's stored analysis stays on show when the browser cannot read the saved file
      setLive({ status: "idle" });
      return;
    }
    if (REFUSED_MESH_ERRORS.has(reply.code) || !reply.fallback) {
      setLive({ status: "refused", fileName, message: reply.message });
      return;
    }
    setLive({
      status: "done",
      fileName,
      fileSize,
      analysis: {
        method: "file-size",
        ...reply.fallback,
        numberOfColors: 1,
        fileFormat: (fileName.split(".").pop()?.toLowerCase() ?? "stl") as MeshFormat,
        material,
        infillDensity: infill,
        layerHeight,
        supports,
        reason: reply.message,
      },
    });
  });

  const analyzeFile = useCallback(
    (file: File, fromDraft: boolean) => {
      setClientAlert(null);
      setViewerMesh(null);
      fileMeta.current = { fileName: file.name, fileSize: file.size, fromDraft };
      if (!extensionAllowed(file.name)) {
        setLive({ status: "refused", fileName: file.name, message: MESSAGES.invalidType });
        return;
      }
      if (file.size > MAX_DESIGN_BYTES) {
        setLive({ status: "refused", fileName: file.name, message: MESSAGES.tooLarge });
        return;
      }
      setLive({ status: "reading", fileName: file.name, fileSize: file.size });
      requestId.current += 1;
      post({ id: requestId.current, type: "analyze", file, options: engineOptions(options, file.name) });
    },
    [options, post],
  );

  // a saved draft's own file is read in the browser too, so settings changes re-price it at once
  useEffect(() => {
    if (!draft?.hasFile) return;
    let cancelled = false;
    setChosen(false);
    fetch(`/drafts/${draft.id}/file`)
      .then((response) => (response.ok ? response.blob() : null))
      .then((blob) => {
        if (blob && !cancelled) analyzeFile(new File([blob], draft.fileName), true);
      })
      .catch(() => {});
    return () => {
      cancelled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per draft; settings changes re-analyse below
  }, [draft?.id]);

  // settings change the weight: re-estimate from the mesh the worker keeps
  useEffect(() => {
    if (live.status !== "done") return;
    if (live.analysis.method === "mesh") {
      requestId.current += 1;
      post({ id: requestId.current, type: "reanalyze", options: engineOptions(options, fileMeta.current.fileName) });
    } else {
      const estimate = estimateFromFileSize(live.fileSize, live.analysis.fileFormat, material);
      setLive({ ...live, analysis: { ...live.analysis, ...estimate, material, infillDensity: infill, layerHeight, supports } });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only the settings trigger this
  }, [options]);

  // a refusal that came back after the file was chosen is shown; choosing a file again hides it
  useEffect(() => setChosen(false), [actionData]);

  const onFileChange = (file: File | undefined) => {
    setChosen(Boolean(file));
    if (file) analyzeFile(file, false);
    else setLive({ status: "idle" });
  };

  const onDrop = (event: DragEvent<HTMLLabelElement>) => {
    event.preventDefault();
    setDragging(false);
    const files = event.dataTransfer.files;
    if (!files.length || !fileInput.current) return;
    // the dropped file becomes the input's, so the same form posts it
    fileInput.current.files = files;
    onFileChange(files[0]);
  };

  const formProps = getFormProps(form);
  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const intent = submitter?.value === "submit" ? "submit" : "save";
    const hasFile = Boolean(fileInput.current?.files?.length);
    if (!hasFile && !draft) {
      event.preventDefault();
      setClientAlert({
        title: MESSAGES.fileRequiredTitle,
        message: intent === "save" ? MESSAGES.fileRequiredDraft : MESSAGES.fileRequiredUpload,
      });
      return;
    }
    if (hasFile && live.status === "refused") {
      event.preventDefault();
      setClientAlert({
        title: designFailureTitle(intent, Boolean(draft)),
        message: live.message,
      });
      return;
    }
    setClientAlert(null);
    formProps.onSubmit(event);
  };

  const { shown, quote, liveQuote, range, hint } = shownDesign(live, draft, {
    numberOfColors,
    ...choices,
    ratePerKgCents,
    nearbyRates,
  });
  const alert = clientAlert ?? (chosen ? null : designAlertOf(actionData?.result, Boolean(draft)));
  const fileErrors = live.status === "refused" ? [live.message] : chosen ? null : actionData?.result.error?.file;
  const formErrors = chosen ? null : actionData?.result.error?.[""];
  const submitLabel = printer ? `Submit to Printer #${printer.id}` : "Choose Printer";

  return (
    <div className="container-page py-8">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold">{draft ? "Edit Draft" : "Upload Your 3D Design"}</h1>
          <p className="text-slate-600">
            {draft
              ? `Saved print #${draft.id}: change the settings or replace the file.`
              : "Get an instant estimate, then send it to a printer near you."}
          </p>
        </div>
        {draft ? (
          <Link to={`/choose-printer?draftId=${draft.id}`} className="btn-secondary">
            Choose Printer &amp; Submit
          </Link>
        ) : null}
      </div>
      {printer ? (
        <p className="mt-3 rounded-md bg-brand-50 px-3 py-2 text-sm text-brand-700" data-testid="chosen-printer">
          Printing with {printer.name} (Printer #{printer.id}).
        </p>
      ) : null}
      {printerRefusal ? (
        <p
          role="alert"
          className="mt-3 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
          data-testid="printer-refusal"
        >
          {printerRefusal}
        </p>
      ) : null}

      {alert ? (
        <div
          role="alert"
          className="mt-4 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800"
          data-testid="upload-alert"
        >
          <p className="font-semibold">{alert.title}</p>
          <p>{alert.message}</p>
        </div>
      ) : null}

      <Form
        method="post"
        encType="multipart/form-data"
        {...formProps}
        onSubmit={onSubmit}
        className="mt-6 grid gap-6 lg:grid-cols-2"
      >
        {printer ? <input type="hidden" name="printerId" value={printer.id} /> : null}
        <div className="space-y-6">
          <section className="card p-6" aria-labelledby="file-upload-heading">
            <h2 id="file-upload-heading" className="text-lg font-semibold">
              File Upload
            </h2>
            <label
              htmlFor="design-file"
              onDragOver={(event) => {
                event.preventDefault();
                setDragging(true);
              }}
              onDragLeave={() => setDragging(false)}
              onDrop={onDrop}
              className={`mt-4 flex cursor-pointer flex-col items-center justify-center rounded-lg border-2 border-dashed p-6 text-center ${dragging ? "border-brand-500 bg-brand-50" : "border-slate-300 hover:border-brand-500"}`}
              data-testid="drop-zone"
            >
              <span className="text-sm font-medium text-slate-800">Drag and drop your design here, or choose a file</span>
              <span className="mt-1 text-xs text-slate-500">3MF, STL or OBJ, under 50MB</span>
            </label>
            <input
              ref={fileInput}
              id="design-file"
              name="file"
              type="file"
              accept={DESIGN_EXTENSIONS.join(",")}
              aria-label="Design file"
              aria-invalid={fileErrors?.length ? true : undefined}
              aria-describedby={fileErrors?.length ? "design-file-error" : undefined}
              className="mt-3 block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-medium"
              onChange={(event) => onFileChange(event.currentTarget.files?.[0])}
            />
            {draft && !chosen ? (
              <p className="mt-2 text-sm text-slate-600" data-testid="current-file">
                Current file: {draft.fileName} ({formatBytes(draft.fileSize)}). Choose a new file only to replace it.
              </p>
            ) : null}
            <div data-testid="file-error">
              <ErrorList id="design-file-error" errors={fileErrors} />
            </div>
            <UploadProgressBar />
          </section>

          <section className="card p-6" aria-labelledby="analysis-heading">
            <h2 id="analysis-heading" className="text-lg font-semibold">
              File Analysis Results
            </h2>
            <div className="mt-4 overflow-hidden rounded-md bg-stone-100">
              {viewerMesh ? (
                <Suspense fallback={<p className="p-4 text-sm text-slate-600">Loading the 3D preview…</p>}>
                  <DesignViewer
                    mesh={viewerMesh}
                    color={COLOR_SWATCHES[filamentColor] ?? "#2563eb"}
                    label={`3D preview of ${shown?.fileName ?? "your design"}`}
                  />
                </Suspense>
              ) : draft?.previewUrl && !chosen ? (
                <img
                  src={draft.previewUrl}
                  alt={`Preview of ${draft.fileName}`}
                  width={480}
                  height={360}
                  className="mx-auto h-auto max-h-80 w-auto"
                  data-testid="server-preview"
                />
              ) : null}
            </div>
            <div className="mt-4" aria-live="polite">
              {live.status === "reading" ? (
                <p className="text-sm text-slate-600" data-testid="analysing">
                  Analysing {live.fileName}…
                </p>
              ) : shown ? (
                <AnalysisResults
                  analysis={shown.analysis}
                  fileName={shown.fileName}
                  fileSize={shown.fileSize}
                  printColors={numberOfColors}
                  quantity={choices.quantity}
                  unitHint={hint}
                />
              ) : draft && !draft.analysis ? (
                <AnalysisWarning reason="This draft was saved without a file analysis." />
              ) : (
                <p className="text-sm text-slate-600">Choose a file to see its weight, size and print time.</p>
              )}
            </div>
          </section>
        </div>

        <div className="space-y-6">
          <section className="card p-6" aria-labelledby="pricing-heading">
            <h2 id="pricing-heading" className="text-lg font-semibold">
              Pricing Breakdown
            </h2>
            <div className="mt-4">
              {quote ? (
                <PricingBreakdown quote={quote} printer={printer} range={range} />
              ) : (
                <p className="text-sm text-slate-600">The price appears once your file is analysed.</p>
              )}
            </div>
            {liveQuote && draft && liveQuote.customerPays !== draft.quote.customerPays ? (
              <p className="mt-2 text-xs text-slate-500" data-testid="repriced">
                Updated for the settings above; Save Print keeps it.
              </p>
            ) : null}
          </section>

          <section className="card p-6" aria-labelledby="settings-heading">
            <h2 id="settings-heading" className="text-lg font-semibold">
              Print Settings
            </h2>
            <div className="mt-4">
              <DesignSettingsFields fields={fields} disabled={busy} />
            </div>
            {formErrors?.length ? (
              <div role="alert">
                <ErrorList errors={formErrors} />
              </div>
            ) : null}
            <div className="mt-6 flex flex-wrap gap-3">
              <button type="submit" name="intent" value="save" className="btn-secondary" disabled={busy}>
                Save Print
              </button>
              <button type="submit" name="intent" value="submit" className="btn-primary" disabled={busy}>
                {submitLabel}
              </button>
            </div>
          </section>
        </div>
      </Form>
    </div>
  );
}
