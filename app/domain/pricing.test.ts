import { describe, expect, it } from "vitest";
import {
  DEFAULT_RATE_PER_KG_CENTS,
  WEIGHT_TIERS,
  deliveryFeeCents,
  formatPricePerGram,
  materialRatePerKgCents,
  orderTotal,
  pricePerGramFromRatePerKgCents,
  quotePrice,
  ratePerKgCentsFromPricePerGram,
  tierPublicPriceCents,
  weightTierFor,
  type QuoteInput,
} from "./pricing";

type Expected = {
  materialCost: number;
  multicolorPremium: number;
  timePremium: number;
  platformFee: number;
  printerProfit: number;
  customerPays: number;
};

// Each row is worked by hand from the pricing rules, in cents.
const cases: Array<[string, QuoteInput, Expected]> = [
  [
    "100 g, 1 colour, 60 min: minimum platform fee",
    { weightGrams: 100, colors: 1, printTimeMinutes: 60 },
    { materialCost: 150, multicolorPremium: 0, timePremium: 0, platformFee: 100, printerProfit: 150, customerPays: 250 },
  ],
  [
    "100 g with every default",
    { weightGrams: 100 },
    { materialCost: 150, multicolorPremium: 0, timePremium: 0, platformFee: 100, printerProfit: 150, customerPays: 250 },
  ],
  [
    "200 g, 3 colours, 90 min",
    { weightGrams: 200, colors: 3, printTimeMinutes: 90 },
    { materialCost: 300, multicolorPremium: 400, timePremium: 300, platformFee: 150, printerProfit: 1000, customerPays: 1150 },
  ],
  [
    "2 colours, 61 min: a started 15-minute block counts (5 blocks)",
    { weightGrams: 100, colors: 2, printTimeMinutes: 61 },
    { materialCost: 150, multicolorPremium: 200, timePremium: 250, platformFee: 100, printerProfit: 600, customerPays: 700 },
  ],
  [
    "2 colours, 0 min: no time premium",
    { weightGrams: 100, colors: 2, printTimeMinutes: 0 },
    { materialCost: 150, multicolorPremium: 200, timePremium: 0, platformFee: 100, printerProfit: 350, customerPays: 450 },
  ],
  [
    "1 colour, 8 hours: time is free for single colour",
    { weightGrams: 100, colors: 1, printTimeMinutes: 480 },
    { materialCost: 150, multicolorPremium: 0, timePremium: 0, platformFee: 100, printerProfit: 150, customerPays: 250 },
  ],
  [
    "1000 g at the default rate: fee above the minimum (15% of 1500 = 225)",
    { weightGrams: 1000 },
    { materialCost: 1500, multicolorPremium: 0, timePremium: 0, platformFee: 225, printerProfit: 1500, customerPays: 1725 },
  ],
  [
    "printer rate $0.10/g (10000 ¢/kg), 250 g: 2500 + 15% fee 375",
    { weightGrams: 250, ratePerKgCents: 10000 },
    { materialCost: 2500, multicolorPremium: 0, timePremium: 0, platformFee: 375, printerProfit: 2500, customerPays: 2875 },
  ],
  [
    "material cost rounds half up: 1 g × 1500 = 1.5 ¢ → 2",
    { weightGrams: 1 },
    { materialCost: 2, multicolorPremium: 0, timePremium: 0, platformFee: 100, printerProfit: 2, customerPays: 102 },
  ],
  [
    "material cost rounds down below half: 12.3 g × 1500 = 18.45 ¢ → 18",
    { weightGrams: 12.3 },
    { materialCost: 18, multicolorPremium: 0, timePremium: 0, platformFee: 100, printerProfit: 18, customerPays: 118 },
  ],
  [
    "platform fee rounds half up: 15% of 1010 = 151.5 → 152",
    { weightGrams: 101, ratePerKgCents: 10000 },
    { materialCost: 1010, multicolorPremium: 0, timePremium: 0, platformFee: 152, printerProfit: 1010, customerPays: 1162 },
  ],
  [
    "8 colours, 4 h at $0.12/g for 50 g",
    { weightGrams: 50, colors: 8, printTimeMinutes: 240, ratePerKgCents: 12000 },
    // 600 base + 1400 multicolour + 16 blocks × 50 = 800 → 2800, fee 420
    { materialCost: 600, multicolorPremium: 1400, timePremium: 800, platformFee: 420, printerProfit: 2800, customerPays: 3220 },
  ],
  [
    "zero weight still pays the minimum platform fee",
    { weightGrams: 0 },
    { materialCost: 0, multicolorPremium: 0, timePremium: 0, platformFee: 100, printerProfit: 0, customerPays: 100 },
  ],
];

describe("quotePrice", () => {
  it.each(cases)("%s", (_name, input, expected) => {
    const quote = quotePrice(input);
    expect(quote).toMatchObject(expected);
    expect(quote.basePrintCost).toBe(expected.materialCost);
    expect(quote.customerPays).toBe(quote.basePrintCost + quote.multicolorPremium + quote.timePremium + quote.platformFee);
  });

  it("returns every field of the price quote result", () => {
    const quote = quotePrice({ weightGrams: 200, colors: 3, printTimeMinutes: 90 });
    expect(Object.keys(quote).sort()).toEqual(
      [
        "estimatedWeight",
        "filamentCostPer1000g",
        "basePrintCost",
        "platformFee",
        "printerProfit",
        "customerPays",
        "materialCost",
        "multicolorPremium",
        "timePremium",
        "weightTier",
        "quantity",
      ].sort(),
    );
    expect(quote.estimatedWeight).toBe(200);
    expect(quote.filamentCostPer1000g).toBe(DEFAULT_RATE_PER_KG_CENTS);
    expect(quote.weightTier.description).toBe("Larger parts");
  });

  it("prices copies as one order: weight and time for all, the multicolour premium per copy, one fee minimum", () => {
    // 4 copies of 12.5 g in 2 colours, 30 min each, at $0.02/g: material 100, premium 4 × 200, time ceil(120/15) × 50
    const quote = quotePrice({ weightGrams: 50, printTimeMinutes: 120, colors: 2, quantity: 4, ratePerKgCents: 2000 });
    expect(quote).toMatchObject({ quantity: 4, materialCost: 100, multicolorPremium: 800, timePremium: 400 });
    expect(quote.printerProfit).toBe(1300);
    expect(quote.platformFee).toBe(195);
    expect(quote.customerPays).toBe(1495);
    // a small order pays the $1.00 minimum fee once, not once per copy
    expect(quotePrice({ weightGrams: 40, quantity: 4, ratePerKgCents: 2000 }).platformFee).toBe(100);
    expect(quotePrice({ weightGrams: 10 }).quantity).toBe(1);
  });

  it.each([0, 51, 1.5, Number.NaN])("refuses %s copies", (quantity) => {
    expect(() => quotePrice({ weightGrams: 10, quantity })).toThrow(RangeError);
  });

  it("uses the printer's rate when given", () => {
    const quote = quotePrice({ weightGrams: 100, ratePerKgCents: 12000 });
    expect(quote.filamentCostPer1000g).toBe(12000);
    expect(quote.materialCost).toBe(1200);
  });

  it("gives integer cents for awkward inputs", () => {
    for (const weightGrams of [0.1, 1.7, 33.333, 123.456, 999.99]) {
      for (const ratePerKgCents of [1500, 2500, 12345]) {
        const quote = quotePrice({ weightGrams, colors: 2, printTimeMinutes: 7.5, ratePerKgCents });
        for (const key of ["materialCost", "timePremium", "platformFee", "printerProfit", "customerPays"] as const) {
          expect(Number.isInteger(quote[key])).toBe(true);
        }
      }
    }
  });

  it("treats null options as the defaults", () => {
    expect(quotePrice({ weightGrams: 200, colors: null, printTimeMinutes: null, ratePerKgCents: null })).toEqual(
      quotePrice({ weightGrams: 200 }),
    );
  });

  it.each<[string, QuoteInput]>([
    ["negative weight", { weightGrams: -1 }],
    ["NaN weight", { weightGrams: Number.NaN }],
    ["infinite weight", { weightGrams: Infinity }],
    ["0 colours", { weightGrams: 10, colors: 0 }],
    ["9 colours", { weightGrams: 10, colors: 9 }],
    ["fractional colours", { weightGrams: 10, colors: 1.5 }],
    ["negative print time", { weightGrams: 10, printTimeMinutes: -5 }],
    ["negative rate", { weightGrams: 10, ratePerKgCents: -1 }],
  ])("rejects %s with a RangeError", (_name, input) => {
    expect(() => quotePrice(input)).toThrow(RangeError);
  });

  it("names the colour range in the error", () => {
    expect(() => quotePrice({ weightGrams: 10, colors: 9 })).toThrow(/1 to 8/);
  });
});

describe("weight tiers", () => {
  it("holds the weight tier table", () => {
    expect(WEIGHT_TIERS).toHaveLength(9);
    expect(WEIGHT_TIERS.map((t) => t.maxGrams)).toEqual([25, 50, 100, 150, 200, 250, 500, 750, 1000]);
    expect(WEIGHT_TIERS.map((t) => t.printerFeeCents)).toEqual([49, 79, 99, 129, 159, 199, 399, 499, 599]);
    expect(WEIGHT_TIERS.map((t) => t.platformFeeCents)).toEqual([49, 79, 99, 119, 139, 149, 299, 349, 399]);
    expect(WEIGHT_TIERS[0]!.description).toBe("Keychain/trinkets");
    expect(WEIGHT_TIERS[8]!.description).toBe("Pro-tier");
  });

  it("has contiguous ranges", () => {
    WEIGHT_TIERS.forEach((tier, i) => {
      expect(tier.minGrams).toBe(i === 0 ? 0 : WEIGHT_TIERS[i - 1]!.maxGrams + 1);
    });
  });

  it.each([
    [0, 25],
    [25, 25],
    [25.01, 50],
    [26, 50],
    [50, 50],
    [51, 100],
    [250, 250],
    [251, 500],
    [1000, 1000],
    [1001, 1000],
    [50000, 1000],
  ])("%d g → tier up to %d g", (grams, maxGrams) => {
    expect(weightTierFor(grams).maxGrams).toBe(maxGrams);
  });

  it("1001 g falls in the last tier", () => {
    expect(weightTierFor(1001)).toBe(WEIGHT_TIERS[WEIGHT_TIERS.length - 1]);
  });

  it("rejects a negative weight", () => {
    expect(() => weightTierFor(-1)).toThrow(RangeError);
  });

  it("derives public prices from the one table", () => {
    expect(tierPublicPriceCents(weightTierFor(10))).toBe(98);
    expect(tierPublicPriceCents(weightTierFor(900))).toBe(998);
    expect(tierPublicPriceCents(weightTierFor(120))).toBe(248);
  });
});

describe("printer rate conversion", () => {
  it.each<[string | number, number]>([
    ["0.12", 12000],
    [0.12, 12000],
    ["$0.10", 10000],
    ["0.0250", 2500],
    ["0.0255", 2550],
    ["0.35", 35000],
    ["0.015", 1500],
    [0, 0],
  ])("%j $/g → %i ¢/kg", (input, rate) => {
    expect(ratePerKgCentsFromPricePerGram(input)).toBe(rate);
  });

  it("rejects bad and negative prices", () => {
    expect(ratePerKgCentsFromPricePerGram("abc")).toBeNull();
    expect(ratePerKgCentsFromPricePerGram("-0.10")).toBeNull();
    expect(ratePerKgCentsFromPricePerGram("")).toBeNull();
  });

  it.each([
    [12000, "0.12"],
    [10000, "0.10"],
    [2500, "0.025"],
    [2550, "0.0255"],
    [1500, "0.015"],
    [100000, "1.00"],
  ])("%i ¢/kg → %s $/g", (rate, text) => {
    expect(pricePerGramFromRatePerKgCents(rate)).toBe(text);
    expect(ratePerKgCentsFromPricePerGram(text)).toBe(rate);
  });

  it("formats for printer cards", () => {
    expect(formatPricePerGram(12000)).toBe("$0.12/g");
  });

  it("a $0.10/g printer quotes 100 g at 1000 ¢ material", () => {
    const rate = ratePerKgCentsFromPricePerGram("0.10")!;
    const quote = quotePrice({ weightGrams: 100, ratePerKgCents: rate });
    expect(quote.materialCost).toBe(1000);
    expect(quote.platformFee).toBe(150);
    expect(quote.customerPays).toBe(1150);
  });

  it("maps calculator materials to their typical rate", () => {
    expect(materialRatePerKgCents("PLA")).toBe(2000);
    expect(materialRatePerKgCents("PETG")).toBe(2800);
    expect(materialRatePerKgCents("ABS")).toBe(2500);
    expect(materialRatePerKgCents("TPU")).toBe(3500);
    expect(materialRatePerKgCents("unobtainium")).toBe(DEFAULT_RATE_PER_KG_CENTS);
  });
});

describe("delivery and order total", () => {
  it("charges by delivery method", () => {
    expect(deliveryFeeCents("pickup")).toBe(0);
    expect(deliveryFeeCents("delivery")).toBe(500);
    expect(deliveryFeeCents("shipping", 599)).toBe(599);
    expect(deliveryFeeCents("pickup", 599)).toBe(0);
  });

  it("requires a whole-cent shipping cost", () => {
    expect(() => deliveryFeeCents("shipping")).toThrow(RangeError);
    expect(() => deliveryFeeCents("shipping", -1)).toThrow(RangeError);
    expect(() => deliveryFeeCents("shipping", 5.99)).toThrow(RangeError);
  });

  it("rejects an unknown method", () => {
    expect(() => deliveryFeeCents("teleport" as never)).toThrow(RangeError);
  });

  it.each([
    ["pickup", undefined, 0, 1150],
    ["delivery", undefined, 500, 1650],
    ["shipping", 842, 842, 1992],
  ] as const)("%s adds %s", (deliveryMethod, shippingCents, deliveryFee, total) => {
    const quote = quotePrice({ weightGrams: 200, colors: 3, printTimeMinutes: 90 });
    expect(orderTotal({ quote, deliveryMethod, shippingCents })).toEqual({ subtotal: 1150, deliveryFee, total });
  });
});
