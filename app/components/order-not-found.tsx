// The error page of the pages under /order/{id}: "Order Not Found" for a 404, the general page otherwise.
import { Link } from "./link";
import { ErrorPage, GeneralErrorBoundary } from "./error-boundary";

export const ORDER_NOT_FOUND_TEXT = "The order you're looking for doesn't exist or you don't have access to it.";

export function OrderErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        404: () => (
          <ErrorPage heading="Order Not Found" message={ORDER_NOT_FOUND_TEXT}>
            <Link to="/dashboard" className="btn-primary mt-4">
              Go to Dashboard
            </Link>
          </ErrorPage>
        ),
      }}
    />
  );
}
