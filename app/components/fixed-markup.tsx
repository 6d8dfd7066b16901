// Parts of a page that are the same on every page for every visitor (the footer's links): the server draws
// each one's HTML once per process and every page carries that text, instead of React drawing the same few
// dozen elements on each request (decision 036). In the browser the part keeps the HTML the server drew.
// Without either (a test rendering the component alone) the part is drawn as any component is.
import { createContext, useContext, type ComponentType } from "react";

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
