// How far the current upload has gone, kept outside React so the XHR client can report it and the form can show it.
import { useSyncExternalStore } from "react";

export type UploadProgress = { loaded: number; total: number } | null;

let current: UploadProgress = null;
const listeners = new Set<() => void>();

export function setUploadProgress(next: UploadProgress) {
  current = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The upload's progress while one runs; null otherwise (and always on the server). */
export function useUploadProgress(): UploadProgress {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
}
