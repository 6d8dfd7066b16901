import { describe, expect, it } from "vitest";
import {
  checkPrinterPhoto,
  DEFAULT_PRINTER_IMAGE_URL,
  imageKeyFromFileName,
  printerImageUrl,
  sniffImage,
} from "./printer-images.server";

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

describe("photo checks", () => {
  it("recognises JPEG, PNG and WebP by their bytes", () => {
    expect(sniffImage(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).toBe("jpg");
    expect(sniffImage(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe("png");
    expect(sniffImage(new TextEncoder().encode("RIFF\0\0\0\0WEBPVP8 "))).toBe("webp");
    expect(sniffImage(new TextEncoder().encode("<svg onload=alert(1)>"))).toBeNull();
  });

  it("refuses a file over 5 MB or one that is not an image, whatever its type says", async () => {
    expect(await checkPrinterPhoto(new File([new Uint8Array(5 * 1024 * 1024 + 1)], "big.jpg", { type: "image/jpeg" }))).toEqual({
      ok: false,
      message: "The photo must be 5 MB or smaller",
    });
    expect(await checkPrinterPhoto(new File(["GIF89a"], "x.png", { type: "image/png" }))).toMatchObject({ ok: false });
  });
});
