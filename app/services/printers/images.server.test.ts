import sharp, { type Sharp } from "sharp";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_PRINTER_IMAGE_URL,
  imageKeyFromFileName,
  familyImageUrl,
  printerImageUrl,
  readPrinterPhoto,
  sniffImage,
  storePrinterPhoto,
} from "./images.server";
import { acceptableImageSize } from "./image-reencode.server";
import { PHOTO_TOO_MANY_PIXELS, PHOTO_UNREADABLE } from "~/domain/printer-form";
import { PRINTER_MODELS } from "~/domain/printer-models";
import { getStorage } from "~/services/storage.server";
import { existsSync } from "node:fs";
import { PHONE_EXIF_TEXTS, phoneJpeg, pngOf, pngText, pngXmp } from "../../../tests/fixtures/images";

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

const photoFile = (bytes: Uint8Array, name: string) => new File([bytes as Uint8Array<ArrayBuffer>], name);
const has = (bytes: Uint8Array, text: string) => Buffer.from(bytes).includes(text);

describe("stored photos are re-encoded without their metadata", () => {
  it("drops a JPEG's EXIF with its GPS block and turns the photo upright", async () => {
    const original = await phoneJpeg();
    const before = await sharp(original).metadata();
    // the fixture really carries what a phone writes
    expect(before.exif).toBeDefined();
    expect([before.orientation, before.width, before.height]).toEqual([6, 64, 48]);
    for (const text of PHONE_EXIF_TEXTS) expect(has(original, text), text).toBe(true);

    const photo = await readPrinterPhoto(photoFile(original, "home.jpg"));
    expect(photo.ext).toBe("jpg");
    for (const text of PHONE_EXIF_TEXTS) expect(has(photo.bytes, text), text).toBe(false);
    const after = await sharp(photo.bytes).metadata();
    expect(after).toMatchObject({ format: "jpeg", width: 48, height: 64 });
    expect([after.exif, after.orientation, after.xmp, after.icc, after.iptc]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("drops a PNG's text comments and XMP", async () => {
    const xmp = '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><exif:GPSLatitude>40,33N</exif:GPSLatitude></rdf:RDF></x:xmpmeta>';
    const original = pngOf(4, 3, [pngText("Comment", "printer in the garage at 12 Elm St"), pngXmp(xmp)]);
    const before = await sharp(original).metadata();
    expect(before.comments).toEqual([{ keyword: "Comment", text: "printer in the garage at 12 Elm St" }]);
    expect(before.xmp).toBeDefined();

    const photo = await readPrinterPhoto(photoFile(original, "garage.png"));
    expect(photo.ext).toBe("png");
    for (const text of ["tEXt", "iTXt", "Elm St", "xmpmeta", "GPSLatitude"]) expect(has(photo.bytes, text), text).toBe(false);
    const after = await sharp(photo.bytes).metadata();
    expect(after).toMatchObject({ format: "png", width: 4, height: 3 });
    expect([after.comments, after.xmp, after.exif]).toEqual([undefined, undefined, undefined]);
  });

  it("stores a plain photo that reads back as a picture of the same format and size", async () => {
    for (const [ext, encode] of [
      ["jpg", (s: Sharp) => s.jpeg()],
      ["png", (s: Sharp) => s.png()],
      ["webp", (s: Sharp) => s.webp()],
    ] as const) {
      const original = await encode(sharp({ create: { width: 30, height: 20, channels: 3, background: "#c0ffee" } })).toBuffer();
      const key = await storePrinterPhoto(await readPrinterPhoto(photoFile(original, `p.${ext}`)));
      expect(key.endsWith(`.${ext}`)).toBe(true);
      const stored = new Uint8Array(await (await getStorage().get(key))!.arrayBuffer());
      expect(sniffImage(stored)).toBe(ext);
      expect(await sharp(stored).metadata()).toMatchObject({ width: 30, height: 20, format: ext === "jpg" ? "jpeg" : ext });
    }
  });
});

describe("photos that are not decoded", () => {
  it("refuses a PNG whose header declares 100000 × 100000 pixels, without decoding it", async () => {
    const huge = pngOf(100_000, 100_000, [], false);
    expect(huge.length).toBeLessThan(200);
    const rss = process.memoryUsage().rss;
    await expect(readPrinterPhoto(photoFile(huge, "huge.png"))).rejects.toMatchObject({
      code: "too_large",
      field: "image",
      message: PHOTO_TOO_MANY_PIXELS,
    });
    // decoding it would take 30 GB; reading its header takes nothing
    expect(process.memoryUsage().rss - rss).toBeLessThan(100 * 1024 * 1024);
    expect(PHOTO_TOO_MANY_PIXELS).toBe("The photo must be 50 megapixels or smaller, at most 10000 pixels on a side");
  });

  it("takes up to 10000 pixels a side and 50 megapixels in all", () => {
    expect(acceptableImageSize(10_000, 5_000)).toBe(true);
    expect(acceptableImageSize(8_160, 6_120)).toBe(true);
    expect(acceptableImageSize(10_001, 10)).toBe(false);
    expect(acceptableImageSize(10, 10_001)).toBe(false);
    expect(acceptableImageSize(8_000, 7_000)).toBe(false);
    expect(acceptableImageSize(0, 10)).toBe(false);
  });

  it("refuses bytes with a picture's signature that do not decode, on the photo's field", async () => {
    const jpeg = await sharp({
      create: { width: 200, height: 200, channels: 3, background: "#000", noise: { type: "gaussian", mean: 128, sigma: 40 } },
    })
      .jpeg()
      .toBuffer();
    const brokenPixels = pngOf(8, 8);
    brokenPixels.fill(0x41, 45, brokenPixels.length - 12); // the IDAT's compressed rows, not its header
    const cases = [
      Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, ...new Array(200).fill(7)]), // a JPEG signature and nothing else
      jpeg.subarray(0, jpeg.length / 2), // cut off halfway
      brokenPixels,
      new TextEncoder().encode("RIFF\0\0\0\0WEBPVP8 not really a webp"),
    ];
    for (const [i, bytes] of cases.entries()) {
      await expect(readPrinterPhoto(photoFile(bytes, "x.jpg"), "photos"), `case ${i}`).rejects.toMatchObject({
        code: "invalid",
        field: "photos",
        message: PHOTO_UNREADABLE,
      });
    }
  });
});
