// The reference profile's constants and the factors fitted against its slicer (docs/weight-estimate.md).

/**
 * Constants of the reference profile (PrusaSlicer 2.5, 0.4 mm nozzle, 0.45 mm lines, 2 perimeters,
 * 3 top and 3 bottom layers, gyroid) plus the factors fitted by scripts/calibrate.ts.
 */
export interface Calibration {
  extrusionWidth: number;
  perimeters: number;
  topLayers: number;
  bottomLayers: number;
  /** mm2: sparse regions smaller than this are printed solid (solid_infill_below_area) */
  solidBelowArea: number;
  /** sparse infill material per unit of nominal density (gyroid lines, anchors and overlap) */
  infillFactor: number;
  /** extra material of a bridging layer over air or sparse infill (thick bridges) */
  bridgeFactor: number;
  /** perimeter material per mm of outline, relative to perimeters x line spacing */
  shellFactor: number;
  /** mm2 of sparse-infill material per mm of outline per layer: anchors and turns along the perimeters */
  anchorWidth: number;
  /** extra perimeter (extra_perimeters) on overhanging walls, as a share of one line per layer */
  overhangPerimeterFactor: number;
  /**
   * share of the perimeter width taken out of a sloped skin strip: 1 when the skin starts where the
   * perimeters end, less when ensure_vertical_shell_thickness fills the strip under a slope anyway
   */
  skinInsetFactor: number;
  /**
   * solid_infill_below_area applies to each island of sparse infill, which the layer sums do not see. A
   * layer whose sparse infill could be split into small islands (pi w^2 < islandProbe x solidBelowArea, with
   * w = 2 x sparse / outline) has its outline assembled into loops, and islands under the area print solid.
   * 0 never looks.
   */
  islandProbe: number;
  /**
   * mm: top and bottom skins grow by this much into the sparse infill beside them (PrusaSlicer 2.5's
   * external infill margin, 3 mm), counted along the inner corners where a flat skin meets a wall
   */
  skinMargin: number;
  /** mm/s */
  speeds: {
    externalPerimeter: number;
    perimeter: number;
    infill: number;
    solidInfill: number;
    topSolid: number;
    bridge: number;
    firstLayer: number;
    travel: number;
  };
  /** share of the nominal speed reached on average once acceleration is counted, per feature */
  speedEfficiency: { externalPerimeter: number; perimeter: number; infill: number; solid: number };
  /** seconds per layer for the layer change */
  layerOverhead: number;
  /** seconds per separate part per layer for travel and retraction */
  islandOverhead: number;
  /** slowdown_below_layer_time: layers are stretched to at least this many seconds */
  minLayerTime: number;
  /** min_print_speed, mm/s: the cooling slowdown stops here */
  minPrintSpeed: number;
  /** support lines' share of the volume under an overhang */
  supportDensity: number;
}

export const DEFAULT_CALIBRATION: Calibration = {
  extrusionWidth: 0.45,
  perimeters: 2,
  topLayers: 3,
  bottomLayers: 3,
  solidBelowArea: 70,
  // fitted by `npx tsx scripts/calibrate.ts --fit` against PrusaSlicer 2.5 (docs/weight-estimate.md)
  infillFactor: 0.95,
  bridgeFactor: 1.36,
  shellFactor: 1.0,
  anchorWidth: 0.177,
  overhangPerimeterFactor: 3.95,
  skinInsetFactor: 1,
  islandProbe: 4,
  skinMargin: 3,
  speeds: {
    externalPerimeter: 25,
    perimeter: 45,
    infill: 80,
    solidInfill: 80,
    topSolid: 40,
    bridge: 30,
    firstLayer: 20,
    travel: 150,
  },
  speedEfficiency: { externalPerimeter: 0.799, perimeter: 0.836, infill: 0.618, solid: 0.782 },
  layerOverhead: 0.045,
  islandOverhead: 0.136,
  minLayerTime: 5,
  minPrintSpeed: 10,
  supportDensity: 0.2,
};
