// An offline printer cannot be chosen by editing the URL or the form: the page says so and the
// server refuses the design sent to it.
import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import { printers } from "../../db/schema";
import { getDb } from "../../app/utils/db.server";
import { expect, test } from "./fixtures";
import { createPerson } from "./helpers";

const OFFLINE = "That printer is offline and not taking orders right now. Please choose another one.";

async function offlinePrinterId(): Promise<number> {
  // the demo's Loveland Mini is offline
  const [row] = await (await getDb()).select().from(printers).where(eq(printers.name, "Loveland Mini"));
  expect(row.isAvailable).toBe(false);
  return row.id;
}

test("an offline printer in the upload URL is refused with a message, and the server refuses it too", async ({
  page,
  signIn,
}) => {
  const person = await createPerson("Otto");
  await signIn(person);
  const id = await offlinePrinterId();
  await page.goto(`/upload?printer=${id}`);
  await expect(page.getByTestId("printer-refusal")).toHaveText(OFFLINE);
  await expect(page.getByTestId("chosen-printer")).toHaveCount(0);
  await expect(page.getByRole("button", { name: `Submit to Printer #${id}` })).toHaveCount(0);

  const response = await page.request.post("/api/upload-design", {
    multipart: {
      file: {
        name: "cube.stl",
        mimeType: "application/octet-stream",
        buffer: readFileSync("tests/fixtures/models/trimesh_20mm-xyz-cube.stl"),
      },
      material: "PLA",
      printerId: String(id),
    },
  });
  expect(response.status()).toBe(400);
  expect(await response.text()).toContain(OFFLINE);
});
