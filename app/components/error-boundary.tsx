// The one error boundary every route uses: a handler per status where a route has its own words,
// a sensible page otherwise. Unexpected errors are logged (without user content) and shown plainly.
import { isRouteErrorResponse, useParams, useRouteError, type ErrorResponse } from "@remix-run/react";
import { Link } from "./link";
import type { ReactNode } from "react";

type StatusHandler = (info: { error: ErrorResponse; params: Record<string, string | undefined> }) => ReactNode;

export function ErrorPage({
  mark,
  heading,
  message,
  children,
}: {
  /** a large word above the heading ("Oops") */
  mark?: string;
  heading: string;
  message: string;
  children?: ReactNode;
}) {
  return (
    <div className="container-page py-24 text-center">
      {mark ? <p className="text-5xl font-bold text-brand-600">{mark}</p> : null}
      <h1 className={mark ? "mt-4 text-2xl font-semibold" : "text-2xl font-semibold"}>{heading}</h1>
      <p className="mt-2 text-slate-600">{message}</p>
      <div className="mt-8 flex justify-center gap-3">
        {children ?? (
          <>
            <Link to="/" className="btn-primary">
              Go to the home page
            </Link>
            <Link to="/models" className="btn-secondary">
              Browse models
            </Link>
          </>
        )}
      </div>
    </div>
  );
}

function defaultStatusPage(error: ErrorResponse) {
  if (error.status === 404) {
    return (
      <div className="container-page py-24 text-center">
        <p className="text-5xl font-bold text-brand-600">404</p>
        <h1 className="mt-4 text-2xl font-semibold">Page not found</h1>
        <p className="mt-2 text-slate-600">
          We couldn't find the page you're looking for. It may have moved, or the address may be mistyped.
        </p>
        <div className="mt-8 flex justify-center gap-3">
          <Link to="/" className="btn-primary">
            Go to the home page
          </Link>
          <Link to="/models" className="btn-secondary">
            Browse models
          </Link>
        </div>
      </div>
    );
  }
  if (error.status === 403) return <ErrorPage heading="Access denied" message="You don't have access to this page." />;
  return (
    <ErrorPage
      heading="Something went wrong"
      message={typeof error.data === "string" && error.data ? error.data : "Please try again in a moment."}
    />
  );
}

export function GeneralErrorBoundary({
  statusHandlers,
  unexpectedErrorHandler,
}: {
  statusHandlers?: Record<number, StatusHandler>;
  unexpectedErrorHandler?: (error: unknown) => ReactNode;
}) {
  const error = useRouteError();
  const params = useParams();
  if (isRouteErrorResponse(error)) {
    return <>{statusHandlers?.[error.status]?.({ error, params }) ?? defaultStatusPage(error)}</>;
  }
  if (typeof document !== "undefined") console.error(error);
  return (
    <>
      {unexpectedErrorHandler?.(error) ?? (
        <ErrorPage
          mark="Oops"
          heading="Something went wrong"
          message="An unexpected error happened on our side. Please try again in a moment; nothing you saved was lost."
        />
      )}
    </>
  );
}
