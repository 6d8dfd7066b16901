// Paging through a long list with plain links, so it works without JavaScript.
import { Link } from "./link";

/** A link to the same page with some query values changed (null removes one). */
export function withParams(search: string, changes: Record<string, string | null>): string {
  const params = new URLSearchParams(search);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === "") params.delete(key);
    else params.set(key, value);
  }
  const query = params.toString();
  return query ? `?${query}` : "?";
}

/** Previous and Next around "Page n of m" (?page=, the first page without it); nothing for a single page. */
export function PageLinks({ search, page, pageCount }: { search: string; page: number; pageCount: number }) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label="Pages" className="mt-6 flex items-center justify-center gap-3 text-sm">
      {page > 1 ? (
        <Link to={withParams(search, { page: page === 2 ? null : String(page - 1) })} className="btn-secondary">
          Previous
        </Link>
      ) : null}
      <span>
        Page {page} of {pageCount}
      </span>
      {page < pageCount ? (
        <Link to={withParams(search, { page: String(page + 1) })} className="btn-secondary">
          Next
        </Link>
      ) : null}
    </nav>
  );
}
