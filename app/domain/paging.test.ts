import { describe, expect, it } from "vitest";
import { listPage } from "./paging";

describe("listPage", () => {
  it("reads ?page= as a page of the list, within its first and last", () => {
    expect(listPage(null, 60, 25)).toEqual({ page: 1, pageCount: 3, offset: 0, limit: 25 });
    expect(listPage("2", 60, 25)).toEqual({ page: 2, pageCount: 3, offset: 25, limit: 25 });
    expect(listPage("3", 60, 25)).toMatchObject({ page: 3, offset: 50 });
    expect(listPage("99", 60, 25)).toMatchObject({ page: 3, offset: 50 });
    expect(listPage("2.7", 60, 25)).toMatchObject({ page: 2 });
  });

  it("takes the first page for anything that is not a page", () => {
    for (const asked of ["0", "-4", "abc", "", "Infinity", "1e400"]) {
      expect(listPage(asked, 60, 25).page, asked).toBe(1);
    }
  });

  it("has one page, empty, for an empty list", () => {
    expect(listPage("5", 0, 25)).toEqual({ page: 1, pageCount: 1, offset: 0, limit: 25 });
  });
});
