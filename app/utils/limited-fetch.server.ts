// fetch for an outside service that may go silent (the storage bucket): each try is given up after a silence,
// a failed try is made once more, and a body that stops arriving errors instead of holding its reader for ever.
// A silence rather than a total deadline: a big file on a slow link may take long, yet it never goes quiet.

export interface SilenceLimits {
  /** silence before the answer's headers (connecting, sending, waiting) that gives a try up */
  answerMs: number;
  /** silence in the answer's body, while it is read, that cuts it */
  stallMs: number;
  /** tries in all; a network failure, a given-up try and a 5xx answer are tried again */
  attempts: number;
  retryPauseMs: number;
}

/** The longest a request waits for a service that never answers before it gives up. */
export const worstAnswerMs = (limits: SilenceLimits) =>
  limits.attempts * limits.answerMs + (limits.attempts - 1) * limits.retryPauseMs;

/**
 * Sends the request `open` makes (a fresh one each try; `progress` is to be called as its body is read) under
 * `limits`. What still fails after the last try, and a body that stalls, fail with `failure(cause)`.
 */
export async function fetchWithinLimits(
  open: (progress: () => void) => Promise<Request> | Request,
  limits: SilenceLimits,
  failure: (cause: unknown) => unknown,
): Promise<Response> {
  let cause: unknown;
  for (let attempt = 1; attempt <= limits.attempts; attempt++) {
    if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, limits.retryPauseMs));
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const progress = () => {
      clearTimeout(timer);
      timer = setTimeout(() => abort.abort(new Error(`no answer within ${limits.answerMs} ms`)), limits.answerMs);
    };
    progress();
    try {
      const response = await fetch(await open(progress), { signal: abort.signal });
      if (response.status < 500) return stallGuarded(response, abort, limits.stallMs, failure);
      cause = new Error(`answered ${response.status}`);
      await response.arrayBuffer().catch(() => {});
    } catch (error) {
      cause = error;
    } finally {
      clearTimeout(timer);
    }
  }
  throw failure(cause);
}

/** A fetch function for a library that takes one (its requests carry no body, so a retry can send them again). */
export function fetchFunctionWithinLimits(limits: SilenceLimits, failure: (cause: unknown) => unknown): typeof fetch {
  return (input, init) => fetchWithinLimits(() => new Request(input, init), limits, failure);
}

/** The same stream, calling `progress` at each chunk read from it. */
export function progressing(source: ReadableStream<Uint8Array>, progress: () => void): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      progress();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** The answer with a body that errors with `failure` once nothing arrives for `stallMs` while it is read. */
function stallGuarded(
  response: Response,
  abort: AbortController,
  stallMs: number,
  failure: (cause: unknown) => unknown,
): Response {
  if (!response.body) return response;
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const stalled = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`nothing arrived for ${stallMs} ms`)), stallMs);
      });
      try {
        const { done, value } = await Promise.race([reader.read(), stalled]);
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        abort.abort(error);
        void reader.cancel(error).catch(() => {});
        controller.error(failure(error));
      } finally {
        clearTimeout(timer);
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
