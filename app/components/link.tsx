// The site's links. React Router's Link resolves its address against the route matches several times per
// render; for a link to an absolute address of this site with nothing but attributes, none of that is needed:
// it is an <a> marked for the one click handler the root installs (InAppNavigation), which makes the same
// client-side navigation Link would (decision 036). With reloadDocument it is an unmarked <a>: the browser
// loads the new document itself, as it does for React Router's Link then. Anything else — a relative
// address, replace, state, prefetch, target, an onClick of its own — is React Router's Link.
import { Link as RemixLink, useLocation, useNavigate, type LinkProps } from "@remix-run/react";
import { useEffect, type ReactNode } from "react";

/** The attribute that marks a plain in-app link or form (Link below, Form in form.tsx) for the root's handlers. */
export const IN_APP = "data-in-app";

/** An address of this site from its root, which the browser and the router read alike. */
export function isSiteAddress(to: unknown): to is string {
  return typeof to === "string" && to.startsWith("/") && !to.startsWith("//") && !to.startsWith("/\\");
}

/**
 * The attributes beyond `to`, `className`, `children`, `aria-current` and `reloadDocument` when the link needs
 * nothing of React Router's Link (undefined when there are none, the usual case), or null when it does.
 */
export function extraAttributes(props: Record<string, unknown>): Record<string, unknown> | undefined | null {
  if (!isSiteAddress(props.to)) return null;
  let extra: Record<string, unknown> | undefined;
  for (const key in props) {
    if (key === "to" || key === "children" || key === "className" || key === "aria-current" || key === "reloadDocument") continue;
    const attribute = key === "id" || key === "title" || key === "role" || key === "tabIndex" || key === "style";
    if (!attribute && !key.startsWith("aria-") && !key.startsWith("data-")) return null;
    (extra ??= {})[key] = props[key];
  }
  return extra;
}

export function Link(props: LinkProps) {
  const extra = extraAttributes(props as unknown as Record<string, unknown>);
  if (extra === null) return <RemixLink {...props} />;
  // a new document (reloadDocument) is the browser's to load: nothing for the router to handle or discover.
  // Otherwise data-discover: Remix's lazy route discovery learns the routes of the links on the page
  const inApp = !props.reloadDocument;
  return (
    <a
      href={props.to as string}
      className={props.className as string | undefined}
      aria-current={props["aria-current"]}
      data-discover={inApp ? "true" : undefined}
      data-in-app={inApp ? "" : undefined}
      {...extra}
    >
      {props.children}
    </a>
  );
}

/** Whether `to` is the page at `pathname` or one of its sub-pages, as NavLink decides it (letter case aside). */
export function isCurrentPage(pathname: string, to: string, end = false): boolean {
  const path = to.split(/[?#]/)[0]!.toLowerCase();
  const current = pathname.toLowerCase();
  const base = path !== "/" && path.endsWith("/") ? path.slice(0, -1) : path;
  if (current === base) return true;
  if (end || base === "/") return false;
  return current.startsWith(base) && current.charAt(base.length) === "/";
}

interface NavLinkProps {
  /** an absolute address of this site */
  to: string;
  end?: boolean;
  className?: string | ((state: { isActive: boolean }) => string);
  children?: ReactNode;
}

/** A link that knows it leads to the page shown: aria-current="page" and its active class. */
export function NavLink({ to, end, className, children }: NavLinkProps) {
  const isActive = isCurrentPage(useLocation().pathname, to, end);
  return (
    <Link
      to={to}
      aria-current={isActive ? "page" : undefined}
      className={typeof className === "function" ? className({ isActive }) : className}
    >
      {children}
    </Link>
  );
}

/**
 * The plain in-app links' one click handler: a left click without modifier keys that no one else handled
 * navigates in the page, replacing the history entry when the address is the current one, as Link does.
 */
export function InAppNavigation() {
  const navigate = useNavigate();
  const location = useLocation();
  const current = `${location.pathname}${location.search}${location.hash}`;
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
      const link = (event.target as Element | null)?.closest?.(`a[${IN_APP}]`);
      if (!(link instanceof HTMLAnchorElement) || (link.target && link.target !== "_self")) return;
      const to = link.getAttribute("href");
      if (!isSiteAddress(to)) return;
      event.preventDefault();
      navigate(to, { replace: to === current });
    };
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, [navigate, current]);
  return null;
}
