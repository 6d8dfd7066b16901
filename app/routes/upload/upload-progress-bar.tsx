// The upload's progress under the file input, while the XHR client sends the form.
import { useUploadProgress } from "./upload-progress";

export function UploadProgressBar() {
  const progress = useUploadProgress();
  if (!progress) return null;
  const percent = progress.total > 0 ? Math.round((progress.loaded / progress.total) * 100) : null;
  return (
    <div className="mt-3" data-testid="upload-progress">
      <div className="flex justify-between text-xs text-slate-600">
        <span>{percent === 100 ? "Upload complete, analysing…" : "Uploading…"}</span>
        <span>{percent !== null ? `${percent}%` : ""}</span>
      </div>
      <progress
        className="mt-1 h-2 w-full overflow-hidden rounded accent-brand-600"
        max={100}
        value={percent ?? undefined}
        aria-label="Upload progress"
      />
    </div>
  );
}
