// With JavaScript the upload form goes through XMLHttpRequest to the matching API call, for real upload progress.
import type { SubmissionResult } from "@conform-to/react";
import { setUploadProgress } from "./upload-progress";

export interface XhrAnswer {
  status: number;
  statusText: string;
  body: { redirectTo?: string; title?: string; message?: string; result?: SubmissionResult<string[]> } | null;
}

export function postWithProgress(method: "POST" | "PUT", url: string, body: FormData): Promise<XhrAnswer> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    xhr.setRequestHeader("accept", "application/json");
    xhr.upload.onprogress = (event) =>
      setUploadProgress({ loaded: event.loaded, total: event.lengthComputable ? event.total : 0 });
    xhr.onload = () => {
      let parsed: XhrAnswer["body"] = null;
      try {
        parsed = JSON.parse(xhr.responseText);
      } catch {
        parsed = null;
      }
      resolve({ status: xhr.status, statusText: xhr.statusText, body: parsed });
    };
    xhr.onerror = () => resolve({ status: 0, statusText: "", body: null });
    xhr.onabort = () => resolve({ status: 0, statusText: "", body: null });
    setUploadProgress({ loaded: 0, total: 0 });
    xhr.send(body);
  });
}
