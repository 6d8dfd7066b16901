import { describe, expect, it } from "vitest";
import { toPlainText } from "./plain-text";

describe("toPlainText", () => {
  it("strips HTML and decodes entities", () => {
    expect(toPlainText("<p>Arm &amp; base</p>\n<p>M4 &lt;screws&gt; &#8211; two<br>per side</p>")).toBe(
      "Arm & base\n\nM4 <screws> – two\nper side",
    );
  });

  it("drops script/style content entirely", () => {
    expect(toPlainText("<p>Hi</p><script>alert(1)</script><style>p{}</style>")).toBe("Hi");
  });

  it("strips Markdown markup but keeps the words", () => {
    const md =
      "## Sizes\r\n* **8 mm** version\r\n* Use the [OpenSCAD file](https://example.com/x) to _customise_\r\n\r\n![photo](https://example.com/p.jpg)";
    expect(toPlainText(md)).toBe("Sizes\n- 8 mm version\n- Use the OpenSCAD file to customise\n\nphoto");
  });

  it("leaves underscores inside words alone", () => {
    expect(toPlainText("see cable_clip_v2.scad")).toBe("see cable_clip_v2.scad");
  });

  it("returns '' for nothing", () => {
    expect(toPlainText(null)).toBe("");
    expect(toPlainText(undefined)).toBe("");
    expect(toPlainText("   ")).toBe("");
  });
});
