// CLI: npm run analyze -- <file> [--material PLA] [--infill 15] [--layer-height 0.2] [--supports no|auto|yes]

import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { analyzeModel, isSupportsMode, MeshError, type AnalysisOptions } from "../app/domain/mesh/index";

function fail(message: string): never {
  process.stderr.write(`${JSON.stringify({ message })}\n`);
  process.exit(1);
}

function parseArgs(argv: string[]): { file: string; options: AnalysisOptions } {
  let file: string | undefined;
  const options: AnalysisOptions = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] =
      arg.startsWith("--") && arg.includes("=")
        ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
        : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined) fail(`Missing value for ${flag}.`);
      return v;
    };
    const num = (v: string): number => {
      const n = Number(v);
      if (!Number.isFinite(n)) fail(`${flag} needs a number, got "${v}".`);
      return n;
    };
    switch (flag) {
      case "--material":
        options.material = value();
        break;
      case "--infill":
        options.infill = num(value().replace(/%$/, ""));
        break;
      case "--layer-height":
        options.layerHeight = num(value());
        break;
      case "--supports": {
        const v = value();
        if (!isSupportsMode(v)) fail('--supports must be "no", "auto" or "yes".');
        options.supports = v;
        break;
      }
      default:
        if (flag.startsWith("--")) fail(`Unknown option ${flag}.`);
        if (file !== undefined) fail("Give exactly one model file.");
        file = arg;
    }
  }
  if (!file)
    fail("Usage: npm run analyze -- <file> [--material PLA] [--infill 15] [--layer-height 0.2] [--supports no|auto|yes]");
  return { file, options };
}

async function main(): Promise<void> {
  const { file, options } = parseArgs(process.argv.slice(2));
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(file));
  } catch {
    fail(`Cannot read the file ${file}.`);
  }
  try {
    const result = await analyzeModel(bytes, basename(file), options);
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } catch (e) {
    if (e instanceof MeshError) fail(e.message);
    fail(`The file could not be analysed: ${e instanceof Error ? e.message : String(e)}`);
  }
}

void main();
