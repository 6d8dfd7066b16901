// Parts of a page that are the same on every page for every visitor (the footer's links): the server draws
// each one's HTML once per process and every page carries that text, instead of React drawing the same few
// dozen elements on each request (decision 036). In the browser the part keeps the HTML the server drew.
// Without either (a test rendering the component alone) the part is drawn as any component is.
// A part that is only usually the same (a form nobody has typed into yet) is drawn once too, but the browser
// draws it itself over that HTML, as React hydrates any part, so it keeps its behaviour (UsuallyFixed).
import { createContext, useContext, type ComponentType, type ReactNode } from "react";

const FixedMarkupContext = createContext<Readonly<Record<string, string>> | null>(null);
/** Given by entry.server.tsx: each fixed part's HTML by its id. */
export const FixedMarkupProvider = FixedMarkupContext.Provider;

const keptFromDocument = new Map<string, string>();

/** In the browser: the HTML the server drew for the part, read once from the document. */
function drawnByServer(id: string): string | undefined {
  if (typeof document === "undefined") return undefined;
  let html = keptFromDocument.get(id);
  if (html === undefined) {
    const element = document.getElementById(id);
    if (!element) return undefined;
    html = element.innerHTML;
    keptFromDocument.set(id, html);
  }
  return html;
}

/**
 * A fixed part in a wrapper without a box of its own (display: contents): its elements lay out as children
 * of the wrapper's parent. React hydrates such HTML by leaving it as it is; it is the same text both sides.
 */
export function FixedMarkup({ id, part: Part }: { id: string; part: ComponentType }) {
  const html = useContext(FixedMarkupContext)?.[id] ?? drawnByServer(id);
  if (html === undefined) {
    return (
      <div id={id} className="contents">
        <Part />
      </div>
    );
  }
  return <div id={id} className="contents" dangerouslySetInnerHTML={{ __html: html }} />;
}

/**
 * A part that is usually the same for everyone: while `usual` holds, the server sends the HTML it drew once per
 * process for `id` (entry.server.tsx draws it with renderToString, text separators and all, as the page's own
 * render would), and the browser draws `children` over it as React hydrates any part: `children` must then draw
 * exactly that HTML, and so must not depend on the request (no useId in what they draw, no router state).
 * Otherwise, or without the drawn HTML, `children` are drawn as any component.
 */
export function UsuallyFixed({ id, usual, children }: { id: string; usual: boolean; children: ReactNode }) {
  const drawn = useContext(FixedMarkupContext);
  const html = usual ? drawn?.[id] : undefined;
  if (html !== undefined) return <div className="contents" dangerouslySetInnerHTML={{ __html: html }} />;
  return <div className="contents">{children}</div>;
}
