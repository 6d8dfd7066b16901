import { describe, expect, it } from "vitest";
import { loader } from "../../app/routes/pricing/route";
import { quotePrice, tierPublicPriceCents, WEIGHT_TIERS } from "../../app/domain/pricing";
import { KEYCHAIN_MM } from "../../app/routes/pricing/examples.server";
import { analyzeMesh } from "../../app/domain/mesh";
import { box } from "../../app/domain/mesh/generate";
import { PRINT_DEFAULTS } from "../../app/domain/print-defaults";
import { args, getRequest } from "../setup/requests";

const page = (query = "") => loader(args(getRequest(`/pricing${query}`)));

describe("/pricing calculator", () => {
  it("starts from the calculator's defaults: 100 g, 1 colour, 4 h, PLA at $20/kg, pickup", () => {
    const { input, errors, result } = page();
    expect(input).toEqual({ weight: 100, colors: 1, hours: 4, material: "PLA", delivery: "pickup" });
    expect(errors).toEqual({});
    expect(result.ratePerKgCents).toBe(2000);
    expect(result.quote).toMatchObject({ materialCost: 200, platformFee: 100, customerPays: 300 });
    expect(result.totalCents).toBe(300);
  });

  it("gives the engine's totals for the engine's test inputs at the platform rate", () => {
    // 200 g, 3 colours, 90 min at $15/kg: 3.00 + 4.00 + 3.00 = 10.00, fee 1.50, customer pays 11.50
    const multicolor = page("?weight=200&colors=3&hours=1.5&material=platform&delivery=pickup");
    expect(multicolor.result.quote).toMatchObject({
      materialCost: 300,
      multicolorPremium: 400,
      timePremium: 300,
      printerProfit: 1000,
      platformFee: 150,
      customerPays: 1150,
    });
    expect(multicolor.result.totalCents).toBe(1150);
    expect(multicolor.result.quote).toEqual(quotePrice({ weightGrams: 200, colors: 3, printTimeMinutes: 90 }));

    const single = page("?weight=100&colors=1&hours=1&material=platform");
    expect(single.result.quote.customerPays).toBe(250);
    expect(single.result.totalCents).toBe(250);
  });

  it("sets the rate from the material: PLA 20, PETG 28, ABS 25, TPU 35 per kg", () => {
    for (const [material, rate] of [
      ["PLA", 2000],
      ["PETG", 2800],
      ["ABS", 2500],
      ["TPU", 3500],
      ["platform", 1500],
    ] as const) {
      const { result } = page(`?weight=500&material=${material}`);
      expect(result.ratePerKgCents, material).toBe(rate);
      expect(result.quote.materialCost, material).toBe(rate / 2);
    }
    expect(page("?material=Unobtainium").input.material).toBe("PLA");
  });

  it("adds delivery the way an order does: pickup free, local delivery $5.00, shipping $5.99", () => {
    const base = "?weight=100&colors=1&hours=1&material=platform";
    expect(page(`${base}&delivery=pickup`).result.totalCents).toBe(250);
    expect(page(`${base}&delivery=delivery`).result).toMatchObject({ deliveryCents: 500, totalCents: 750 });
    expect(page(`${base}&delivery=shipping`).result).toMatchObject({ deliveryCents: 599, totalCents: 849 });
    expect(page(`${base}&delivery=teleport`).input.delivery).toBe("pickup");
  });

  it("keeps to the calculator's ranges and says which value was out of range", () => {
    const low = page("?weight=0&colors=9&hours=0.25");
    expect(low.errors).toEqual({
      weight: "Weight must be between 1 and 1000 g",
      colors: "Colours must be a whole number from 1 to 8",
      hours: "Print time must be between 0.5 and 48 hours",
    });
    expect(low.input).toMatchObject({ weight: 100, colors: 1, hours: 4 });
    expect(page("?weight=1001").errors.weight).toBeDefined();
    expect(page("?weight=abc").errors.weight).toBeDefined();
    expect(page("?colors=2.5").errors.colors).toBeDefined();
    expect(page("?hours=48.5").errors.hours).toBeDefined();
    expect(page("?weight=1000&colors=8&hours=48").errors).toEqual({});
  });

  it("shows every weight tier with its public price derived from the engine's table", () => {
    const { tiers } = page();
    expect(tiers).toHaveLength(WEIGHT_TIERS.length);
    expect(tiers.map((t) => t.publicPriceCents)).toEqual(WEIGHT_TIERS.map(tierPublicPriceCents));
    expect(tiers[0]).toMatchObject({ minGrams: 0, maxGrams: 25, publicPriceCents: 98 });
    expect(tiers.at(-1)).toMatchObject({ minGrams: 751, maxGrams: 1000, publicPriceCents: 998 });
  });

  it("computes its three examples with the engine", () => {
    const { examples } = page();
    // the keychain: 3.8 g of PLA at $20/kg for half an hour, the platform fee's minimum included
    expect(examples.map((e) => e.totalCents)).toEqual([108, 1150, 1610 + 500]);
  });

  it("weighs and times its keychain example with the analysis engine, at the default print settings", () => {
    const [keychain] = page().examples;
    const analysis = analyzeMesh(box(KEYCHAIN_MM.x, KEYCHAIN_MM.y, KEYCHAIN_MM.z));
    expect(keychain!.input).toMatchObject({ weight: analysis.estimatedWeight, material: PRINT_DEFAULTS.material, colors: 1 });
    expect(keychain!.input.hours * 60).toBeGreaterThanOrEqual(analysis.estimatedTimeMinutes);
    expect(keychain!.input.weight).toBeLessThanOrEqual(WEIGHT_TIERS[0]!.maxGrams);
  });
});
