import { describe, expect, it, vi } from "vitest";

describe("MeshError", () => {
  it("is recognised by a second copy of its module (the built app and the job runner share one analysis pool)", async () => {
    const first = await import("./errors");
    vi.resetModules();
    const second = await import("./errors");
    expect(second.MeshError).not.toBe(first.MeshError);
    const error = new first.MeshError("This file is not a valid STL file.", "invalid-type");
    expect(error instanceof second.MeshError).toBe(true);
    expect(error instanceof Error).toBe(true);
  });

  it("is not any error that merely carries its name", async () => {
    const { MeshError } = await import("./errors");
    const lookalike = Object.assign(new Error("x"), { name: "MeshError", code: "invalid-type" });
    expect(lookalike instanceof MeshError).toBe(false);
  });
});
