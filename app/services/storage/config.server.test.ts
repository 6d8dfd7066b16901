import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { describeStorage, StorageConfigError, storageConfig } from "./config.server";

const TIGRIS = {
  AWS_ENDPOINT_URL_S3: "https://fly.storage.tigris.dev",
  AWS_REGION: "auto",
  AWS_ACCESS_KEY_ID: "tid_key",
  AWS_SECRET_ACCESS_KEY: "tsec_secret",
  BUCKET_NAME: "printnear-files",
};

describe("storageConfig", () => {
  it("uses the folder without bucket variables, uploads arriving in its .incoming", () => {
    expect(storageConfig({})).toEqual({
      directory: resolve("data/uploads"),
      scratchDirectory: resolve("data/uploads/.incoming"),
      bucket: null,
    });
    expect(storageConfig({ UPLOADS_DIR: "/data/uploads" })).toMatchObject({ directory: "/data/uploads", bucket: null });
    // keys for something else (no bucket named) leave the files in the folder
    expect(storageConfig({ AWS_ACCESS_KEY_ID: "k", AWS_SECRET_ACCESS_KEY: "s" }).bucket).toBeNull();
  });

  it("uses the bucket with the variables Fly's Tigris sets; scratch stays on the machine's disk", () => {
    expect(storageConfig({ ...TIGRIS, UPLOADS_DIR: "/data/uploads" })).toEqual({
      directory: "/data/uploads",
      scratchDirectory: "/data/uploads/.incoming",
      bucket: {
        bucket: "printnear-files",
        endpoint: "https://fly.storage.tigris.dev",
        region: "auto",
        accessKeyId: "tid_key",
        secretAccessKey: "tsec_secret",
        sessionToken: undefined,
      },
    });
  });

  it("takes AWS S3 itself by region, and a region of 'auto' for an endpoint without one", () => {
    const { AWS_ENDPOINT_URL_S3: _, ...aws } = TIGRIS;
    expect(storageConfig({ ...aws, AWS_REGION: "us-east-1", AWS_SESSION_TOKEN: "t" }).bucket).toMatchObject({
      endpoint: undefined,
      region: "us-east-1",
      sessionToken: "t",
    });
    const { AWS_REGION: __, ...noRegion } = TIGRIS;
    expect(storageConfig(noRegion).bucket?.region).toBe("auto");
  });

  it.each([
    [{ ...TIGRIS, AWS_SECRET_ACCESS_KEY: "" }, "BUCKET_NAME is set but AWS_SECRET_ACCESS_KEY not."],
    [{ BUCKET_NAME: "b" }, "BUCKET_NAME is set but AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY not."],
    [{ ...TIGRIS, BUCKET_NAME: " " }, "AWS_ENDPOINT_URL_S3 is set but BUCKET_NAME is not: name the bucket files go to."],
    [
      { ...TIGRIS, AWS_ENDPOINT_URL_S3: undefined, AWS_REGION: undefined },
      "BUCKET_NAME is set without AWS_ENDPOINT_URL_S3 or AWS_REGION",
    ],
    [{ ...TIGRIS, AWS_ENDPOINT_URL_S3: "fly.storage.tigris.dev" }, "AWS_ENDPOINT_URL_S3 must be an http(s) URL."],
  ])("refuses a half-set bucket (%#) instead of storing on one machine's disk", (env, message) => {
    expect(() => storageConfig(env)).toThrow(StorageConfigError);
    expect(() => storageConfig(env)).toThrow(message);
  });

  it("describes where files go without the keys", () => {
    expect(describeStorage(storageConfig({ UPLOADS_DIR: "/data/uploads" }))).toBe(
      "Files are stored in the folder /data/uploads.",
    );
    const bucket = describeStorage(storageConfig(TIGRIS));
    expect(bucket).toBe("Files are stored in the bucket printnear-files at https://fly.storage.tigris.dev.");
    expect(bucket).not.toContain("tsec");
  });
});
