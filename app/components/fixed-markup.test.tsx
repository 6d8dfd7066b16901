import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it } from "vitest";
import { FixedMarkup, FixedMarkupProvider, UsuallyFixed } from "./fixed-markup";
import { FOOTER_FIXED_PARTS } from "./site-footer";

/** The parts' HTML as entry.server.tsx draws it. */
const drawnOnce = () =>
  Object.fromEntries(Object.entries(FOOTER_FIXED_PARTS).map(([id, Part]) => [id, renderToStaticMarkup(<Part />)]));

function Sample() {
  return (
    <ul>
      <li>one</li>
    </ul>
  );
}

afterEach(() => {
  delete (globalThis as { document?: unknown }).document;
});

describe("fixed markup", () => {
  it("draws each of the footer's parts the same whether on each request or once, without a router", () => {
    const once = drawnOnce();
    for (const [id, Part] of Object.entries(FOOTER_FIXED_PARTS)) {
      const each = renderToStaticMarkup(<FixedMarkup id={id} part={Part} />);
      const given = renderToStaticMarkup(
        <FixedMarkupProvider value={once}>
          <FixedMarkup id={id} part={Part} />
        </FixedMarkupProvider>,
      );
      expect(given, id).toBe(each);
      expect(each.startsWith(`<div id="${id}" class="contents">`), id).toBe(true);
    }
    expect(once["footer-links"]).toContain(
      '<a href="/faq" class="hover:text-brand-700" data-discover="true" data-in-app="">FAQ</a>',
    );
    expect(once["footer-contact"]).toContain("mailto:support@printnear.com");
    // what the server hands out is what is shown, not the part drawn again
    expect(
      renderToStaticMarkup(
        <FixedMarkupProvider value={{ "footer-links": "<p>given</p>" }}>
          <FixedMarkup id="footer-links" part={FOOTER_FIXED_PARTS["footer-links"]} />
        </FixedMarkupProvider>,
      ),
    ).toBe('<div id="footer-links" class="contents"><p>given</p></div>');
  });

  it("keeps, in the browser, the HTML the server drew, read once from the document", () => {
    let reads = 0;
    (globalThis as { document?: unknown }).document = {
      getElementById: (id: string) =>
        id === "sample"
          ? {
              get innerHTML() {
                reads++;
                return "<b>from the server</b>";
              },
            }
          : null,
    };
    const shown = () => renderToStaticMarkup(<FixedMarkup id="sample" part={Sample} />);
    expect(shown()).toBe('<div id="sample" class="contents"><b>from the server</b></div>');
    expect(shown()).toBe('<div id="sample" class="contents"><b>from the server</b></div>');
    expect(reads).toBe(1);
    // a part the document does not have is drawn as a component
    expect(renderToStaticMarkup(<FixedMarkup id="elsewhere" part={Sample} />)).toBe(
      '<div id="elsewhere" class="contents"><ul><li>one</li></ul></div>',
    );
  });

  it("sends a usual part's HTML drawn once only while the part is as usual, and draws it otherwise", () => {
    const drawn = { sample: "<b>drawn once</b>" };
    const shown = (usual: boolean, given: Record<string, string> | null) =>
      renderToStaticMarkup(
        <FixedMarkupProvider value={given}>
          <UsuallyFixed id="sample" usual={usual}>
            <Sample />
          </UsuallyFixed>
        </FixedMarkupProvider>,
      );
    expect(shown(true, drawn)).toBe('<div class="contents"><b>drawn once</b></div>');
    expect(shown(false, drawn)).toBe('<div class="contents"><ul><li>one</li></ul></div>');
    // in the browser (no HTML given) the part is always drawn, over the server's HTML while hydrating
    expect(shown(true, null)).toBe('<div class="contents"><ul><li>one</li></ul></div>');
  });
});
