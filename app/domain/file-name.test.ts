import { describe, expect, it } from "vitest";
import { cleanFileName } from "./file-name";

describe("cleanFileName", () => {
  it("removes a right-to-left override that would disguise the extension", () => {
    // shown as is, "invoice\u202Elts.exe" reads "invoiceexe.stl"
    expect(cleanFileName("invoice\u202Elts.gpj.stl")).toBe("invoicelts.gpj.stl");
  });

  it.each([
    ["\u200Eleft-to-right mark.stl", "left-to-right mark.stl"],
    ["right\u200F-to-left mark.stl", "right-to-left mark.stl"],
    ["arabic\u061Cmark.stl", "arabicmark.stl"],
    ["\u202Aembed\u202B\u202Cpop\u202D.stl", "embedpop.stl"],
    ["\u2066isolates\u2067\u2068\u2069.obj", "isolates.obj"],
    ["bell\u0007 and c1\u0085.3mf", "bell and c1.3mf"],
  ])("removes the bidirectional and control characters of %j", (name, clean) => {
    expect(cleanFileName(name)).toBe(clean);
  });

  it("keeps letters of every script and drops any folder part", () => {
    expect(cleanFileName("C:\\Users\\me\\\u05D3\u05D2\u05DD \u6A21\u578B.stl")).toBe("\u05D3\u05D2\u05DD \u6A21\u578B.stl");
    expect(cleanFileName("../../etc/passwd")).toBe("passwd");
  });

  it("never leaves an empty name and keeps the extension of a long one", () => {
    expect(cleanFileName("\u202E")).toBe("design");
    const long = cleanFileName(`${"a".repeat(300)}.3mf`);
    expect(long).toHaveLength(200);
    expect(long.endsWith(".3mf")).toBe(true);
  });
});
