import { describe, expect, it } from "vitest";
import { action, loader } from "../../app/routes/api.$";
import { loader as pageNotFoundLoader } from "../../app/routes/$";
import { run } from "../setup/requests";

describe("a missing /api address", () => {
  it("answers GET with JSON {message} and 404", async () => {
    const response = await run(async () => loader());
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toMatch(/application\/json/);
    expect(await response.json()).toEqual({ message: "There is no API endpoint at this address." });
  });

  it("answers a write with JSON {message} and 404", async () => {
    const response = await run(async () => action());
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: "There is no API endpoint at this address." });
  });

  it("while a missing page still answers the HTML error page's 404", async () => {
    const response = await run(async () => pageNotFoundLoader());
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type") ?? "").not.toMatch(/application\/json/);
  });
});
