import { AppError } from "~/domain/app-error";
import { apiErrorResponse } from "~/utils/app-error.server";

// Every /api/* address no route claims: JSON {message} with 404 for any method, never the HTML error page.
const notFound = () => apiErrorResponse(new AppError("not_found", "There is no API endpoint at this address."));

export function loader() {
  return notFound();
}

export function action() {
  return notFound();
}
