// V8 optimizes a hot function for the hidden class ("shape") of the objects it reads, and drops that code as soon as no
// object of the shape survives a garbage collection: each analysis would then start unoptimized again (a third slower
// for the first runs of every process). One sample of each such shape lives as long as the module instead.

const samples: object[] = [];
// held by the global object too, so a bundler cannot prove the samples unused and drop them
(globalThis as { [key: symbol]: unknown })[Symbol.for("printnear.mesh.shapeSamples")] = samples;

/** Keeps a sample object alive for the life of the module, so code optimized for its shape survives between analyses. */
export function keepShape<T extends object>(sample: T): T {
  samples.push(sample);
  return sample;
}
