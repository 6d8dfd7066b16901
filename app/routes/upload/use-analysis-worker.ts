// The browser's own reading of a chosen file, in a Web Worker started on first use and stopped with the page.
import { useCallback, useEffect, useRef } from "react";
import type { DesignWorkerReply, DesignWorkerRequest } from "~/workers/design-analysis.protocol";

export function useAnalysisWorker(onReply: (reply: DesignWorkerReply) => void) {
  const worker = useRef<Worker | null>(null);
  const replyRef = useRef(onReply);
  replyRef.current = onReply;
  useEffect(() => () => worker.current?.terminate(), []);
  return useCallback((request: DesignWorkerRequest) => {
    if (!worker.current) {
      worker.current = new Worker(new URL("../../workers/design-analysis.worker.ts", import.meta.url), { type: "module" });
      worker.current.onmessage = (event: MessageEvent<DesignWorkerReply>) => replyRef.current(event.data);
    }
    worker.current.postMessage(request);
  }, []);
}
