// The printable file of each demo catalogue model, as a mesh: mock mode serves these for the demo
// things' files, and the seed takes each catalogue model's weight and time from analysing the same
// file, so the model page and the draft that Order Print makes agree.
import { box, cup, cylinder, merge, sphere, torus } from "../app/domain/mesh/generate";
import type { Mesh } from "../app/domain/mesh/types";

/** Keyed by the file name the mock catalogue lists for the thing. */
export const DEMO_CATALOGUE_MESHES: Record<string, () => Mesh> = {
  "flexi_rex.stl": () =>
    merge(
      { mesh: box(6, 8, 10), at: [8, 3, 0] },
      { mesh: box(6, 8, 10), at: [56, 3, 0] },
      { mesh: box(70, 14, 8), at: [0, 0, 10] },
      { mesh: sphere(9), at: [78, 7, 5] },
    ),
  "desk_organizer_module.stl": () => cup(45, 2.4, 80, 2, 4),
  "low_poly_planter.stl": () => cup(50, 2, 90, 3, 8),
  "xyz_calibration_cube.stl": () => box(20, 20, 20),
  "geared_heart.stl": () =>
    merge({ mesh: cylinder(25, 6, 24) }, { mesh: cylinder(25, 6, 24), at: [30, 0, 0] }, { mesh: torus(12, 3), at: [15, 0, 8] }),
  "headphone_stand.stl": () =>
    merge(
      { mesh: box(100, 100, 6) },
      { mesh: cylinder(8, 220, 48), at: [50, 50, 6] },
      { mesh: box(110, 30, 8), at: [-5, 35, 226] },
    ),
};

/** The thing's printable file name for each demo catalogue model, as the mock catalogue lists it. */
export const DEMO_CATALOGUE_FILES: Record<number, string> = {
  3495390: "flexi_rex.stl",
  2187167: "desk_organizer_module.stl",
  4734271: "low_poly_planter.stl",
  763622: "xyz_calibration_cube.stl",
  2806295: "geared_heart.stl",
  1015238: "headphone_stand.stl",
};
