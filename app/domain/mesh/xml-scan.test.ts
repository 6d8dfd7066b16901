import { describe, expect, it } from "vitest";
import { enc } from "./test-helpers";
import { XmlTagScanner } from "./xml-scan";

describe("XmlTagScanner", () => {
  const xml = '<?xml version="1.0"?><!-- a > "b" --><a x="1>2"><![CDATA[<no>]]><b y=\'q"\'/>text<c/><!----><d/></a>';
  const collect = (chunks: Uint8Array[]): string[] => {
    const tags: string[] = [];
    const s = new XmlTagScanner((b, st, en) => tags.push(new TextDecoder().decode(b.subarray(st, en))));
    for (const c of chunks) s.push(c);
    s.finish();
    return tags;
  };
  const whole = collect([enc(xml)]);
  it("finds the real tags only", () => {
    expect(whole).toEqual(['a x="1>2"', "b y='q\"'/", "c/", "d/", "/a"]);
  });
  it.each([1, 2, 3, 5, 7, 11])("gives the same tags when fed in %i-byte chunks", (size) => {
    const bytes = enc(xml);
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.slice(i, i + size));
    expect(collect(chunks)).toEqual(whole);
  });
});
