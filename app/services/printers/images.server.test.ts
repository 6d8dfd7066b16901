import { describe, expect, it } from "vitest";
import {
  DEFAULT_PRINTER_IMAGE_URL,
  imageKeyFromFileName,
  familyImageUrl,
  printerImageUrl,
  readPrinterPhoto,
  sniffImage,
} from "./images.server";
import { PRINTER_MODELS } from "~/domain/printer-models";
import { existsSync } from "node:fs";

describe("printer image URLs", () => {
  it("maps a storage key to its URL and back", () => {
    const key = "printer-images/2026/03/0123456789abcdef0123456789abcdef.webp";
    const url = printerImageUrl(key);
    expect(url).toBe("/api/printer-images/2026-03-0123456789abcdef0123456789abcdef.webp");
    expect(imageKeyFromFileName(url.split("/").pop()!)).toEqual({ key, ext: "webp" });
  });

  it("falls back to default.jpg and rejects names it never issued", () => {
    expect(printerImageUrl(null)).toBe(DEFAULT_PRINTER_IMAGE_URL);
    expect(printerImageUrl("designs/2026/03/0123456789abcdef0123456789abcdef.stl")).toBe(DEFAULT_PRINTER_IMAGE_URL);
    for (const name of ["../../secret.jpg", "2026-03-xyz.jpg", "2026-03-0123456789abcdef0123456789abcdef.svg", "default.jpg"]) {
      expect(imageKeyFromFileName(name)).toBeNull();
    }
  });
});

describe("pictures of printers without a photo", () => {
  it("shows the model's own drawing when the model is a known preset", () => {
    expect(printerImageUrl(null, "Prusa MK4")).toBe("/printer-models/prusa-mk4.svg");
    expect(printerImageUrl(null, "bambu lab p1s")).toBe("/printer-models/bambu-lab-p1s.svg");
    for (const m of PRINTER_MODELS) {
      if (m.name === "Custom/Other") continue;
      const url = printerImageUrl(undefined, m.name);
      expect(url).toBe(m.imagePath);
      expect(existsSync(`public${url}`), url).toBe(true);
    }
  });

  it("falls back to the family drawing for other models, and the stored photo wins over both", () => {
    expect(printerImageUrl(null, "Voron 2.4")).toBe(familyImageUrl("corexy"));
    expect(printerImageUrl(null, "Custom/Other")).toBe(familyImageUrl("generic"));
    expect(printerImageUrl(null, null)).toBe(familyImageUrl("generic"));
    expect(printerImageUrl("printer-images/2026/03/0123456789abcdef0123456789abcdef.jpg", "Prusa MK4")).toBe(
      "/api/printer-images/2026-03-0123456789abcdef0123456789abcdef.jpg",
    );
  });
});

describe("photo checks", () => {
  it("recognises JPEG, PNG and WebP by their bytes", () => {
    expect(sniffImage(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).toBe("jpg");
    expect(sniffImage(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe("png");
    expect(sniffImage(new TextEncoder().encode("RIFF\0\0\0\0WEBPVP8 "))).toBe("webp");
    expect(sniffImage(new TextEncoder().encode("<svg onload=alert(1)>"))).toBeNull();
  });

  it("refuses a file over 5 MB or one that is not an image, whatever its type says", async () => {
    await expect(
      readPrinterPhoto(new File([new Uint8Array(5 * 1024 * 1024 + 1)], "big.jpg", { type: "image/jpeg" })),
    ).rejects.toMatchObject({ code: "too_large", field: "image", message: "The photo must be 5 MB or smaller" });
    await expect(readPrinterPhoto(new File(["GIF89a"], "x.png", { type: "image/png" }))).rejects.toMatchObject({
      field: "image",
      message: "The photo must be a JPEG, PNG or WebP image",
    });
  });
});
