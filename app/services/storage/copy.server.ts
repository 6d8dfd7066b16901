// Copies every stored file from one storage to another (the uploads folder into a bucket, once, when a site
// moves to several machines). A key already in the target is left alone: a bucket shows an object only once
// its upload is whole, so a second run, or a run after an interrupted one, copies only what is missing.
import type { FileStorage } from "@remix-run/file-storage";

export interface CopyReport {
  copied: number;
  /** keys the target already held */
  skipped: number;
  bytes: number;
}

export async function copyStoredFiles(
  from: FileStorage,
  to: FileStorage,
  onCopied: (key: string, size: number) => void = () => {},
): Promise<CopyReport> {
  const report: CopyReport = { copied: 0, skipped: 0, bytes: 0 };
  let cursor: string | undefined;
  do {
    const page = await from.list({ cursor, limit: 100 });
    for (const { key } of page.files) {
      if (await to.has(key)) {
        report.skipped += 1;
        continue;
      }
      const file = await from.get(key);
      // listed, then removed meanwhile: nothing to copy
      if (!file) continue;
      await to.set(key, file);
      report.copied += 1;
      report.bytes += file.size;
      onCopied(key, file.size);
    }
    cursor = page.cursor;
  } while (cursor !== undefined);
  return report;
}
