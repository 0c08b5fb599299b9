// One currency for amounts (docs/decisions.md §13): fx import, transaction.baseAmount in rules and
// aggregates, the rate recorded on the decision, the note when no rate is known.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import * as transactionRoute from "@/app/v1/transaction/route";
import { configureClient } from "@/lib/clients/configure-client";
import { prisma } from "@/lib/db";
import { importRules } from "@/lib/rules/import-rules";
import { call, createTestClient } from "@/tests/factories";

const DAY = 86_400_000;
const dir = mkdtempSync(path.join(tmpdir(), "fx-test-"));
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);
// a transaction at noon UTC of a day relative to today
const at = (offset: number) => Date.parse(`${day(offset)}T12:00:00Z`);

function cli(...args: string[]) {
  const res = spawnSync("npx", ["tsx", "lib/cli/main.ts", ...args], { encoding: "utf8", timeout: 60_000 });
  let json: any = null;
  try {
    json = JSON.parse(res.stdout);
  } catch {
    // not JSON
  }
  return { code: res.status, stderr: res.stderr, json };
}

function csv(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

const RULES = [
  {
    id: "FX-VERY-LARGE",
    condition: "has(transaction.baseAmount) && transaction.baseAmount >= 50000",
  },
  { id: "FX-RAW-LARGE", condition: "transaction.amount >= 50000" },
  { id: "FX-NO-RATE", condition: "!has(transaction.baseAmount)" },
  {
    id: "FX-VOLUME",
    condition: "aggregates.volume24h > 1000 && aggregates.bigOnes24h >= 1",
    aggregates: {
      volume24h: {
        function: "sum",
        over: "transaction",
        groupBy: "userId",
        window: "24h",
        field: "baseAmount",
      },
      bigOnes24h: {
        function: "count",
        over: "transaction",
        groupBy: "userId",
        window: "24h",
        where: "transaction.baseAmount > 500",
      },
    },
  },
].map((r) => ({
  name: r.id,
  subject: "transaction",
  status: "active",
  riskLevel: "high",
  recommendedAction: "REVIEW",
  reason: r.id,
  ...r,
}));

type TClient = { clientId: string; apiKey: string };
let usd: TClient;
let eur: TClient;

async function screen(client: TClient, body: Record<string, unknown>) {
  const res = await call(transactionRoute.POST, {
    apiKey: client.apiKey,
    body: { userId: "u1", status: "APPROVED", ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const row = await prisma.transaction.findUniqueOrThrow({
    where: { clientId_id: { clientId: client.clientId, id: body.id as string } },
  });
  const decision = await prisma.decision.findUniqueOrThrow({ where: { id: row.decisionId! } });
  const evaluated = decision.evaluated as Array<{ ruleId: string; triggered: boolean; error?: string }>;
  const input = decision.input as {
    fx?: Record<string, any>;
    variables: { transaction: Record<string, any> };
  };
  return {
    answer: res.body,
    row,
    fired: evaluated.filter((e) => e.triggered).map((e) => e.ruleId),
    errors: evaluated.filter((e) => e.error),
    fx: input.fx!,
    celTransaction: input.variables.transaction,
    aggregates: decision.aggregates as Record<string, Record<string, number | null>>,
  };
}

beforeAll(async () => {
  const rates = csv(
    "rates.csv",
    [
      "date,currency,rate",
      `${day(-10)},KES,129.2`,
      `${day(-10)},EUR,0.92`,
      `${day(-3)},KES,130`,
      `${day(-3)},EUR,0.9`,
    ].join("\n"),
  );
  const res = cli("fx", "import", rates);
  expect(res.code, res.stderr).toBe(0);
  expect(res.json).toEqual({ rates: 4 });
  usd = await createTestClient({ name: "USD base" });
  eur = await createTestClient({ name: "EUR base" });
  expect(await configureClient({ clientId: eur.clientId, baseCurrency: "eur" })).toMatchObject({
    baseCurrency: "EUR",
  });
  for (const c of [usd, eur]) await importRules({ clientId: c.clientId, rules: RULES });
});

describe("fx import", () => {
  it("refuses a file with a bad row, naming its line, and imports nothing", async () => {
    const { FxImportError, importFxRates } = await import("@/lib/fx/import-rates");
    expect(await importFxRates({ file: csv("ok.csv", `date,currency,rate\n${day(-1)},GBP,0.8\n`) })).toEqual({
      rates: 1,
    });
    for (const [name, text, message] of [
      [
        "bad-date.csv",
        `date,currency,rate\n${day(-1)},CHF,0.9\n2026-13-01,JPY,150\n`,
        /line 3: date '2026-13-01'/,
      ],
      ["bad-rate.csv", `date,currency,rate\n${day(-1)},CHF,0.9\n${day(-1)},JPY,-1\n`, /line 3: rate '-1'/],
      [
        "bad-ccy.csv",
        `date,currency,rate\n${day(-1)},CHF,0.9\n${day(-1)},YENS,150\n`,
        /line 3: currency 'YENS'/,
      ],
      ["dup.csv", `date,currency,rate\n${day(-1)},CHF,0.9\n${day(-1)},chf,0.95\n`, /line 3: CHF .* line 2/],
      ["header.csv", `day,ccy,rate\n${day(-1)},CHF,0.9\n`, /line 1: the header row/],
    ] as const) {
      const error = await importFxRates({ file: csv(name, text) }).catch((err: unknown) => err);
      expect(error, name).toBeInstanceOf(FxImportError);
      expect((error as Error).message, name).toMatch(message);
      expect((error as Error).message, name).toContain(name);
    }
    // and as the operator sees it: exit code 1, the file and line on stderr
    const res = cli(
      "fx",
      "import",
      csv("bad-rate.csv", `date,currency,rate\n${day(-1)},CHF,0.9\n${day(-1)},JPY,-1\n`),
    );
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/nothing imported; bad-rate.csv line 3: rate '-1' is not a positive number/);
    expect(await prisma.fxRate.count({ where: { currency: { in: ["CHF", "JPY"] } } })).toBe(0);
  }, 240_000);
});

describe("transaction.baseAmount", () => {
  it("compares a KES transaction in USD: 95,000 KES does not fire a 50,000 rule, the rate is recorded", async () => {
    const s = await screen(usd, { id: "kes-1", currencyCode: "KES", amount: 95_000, timestamp: at(-1) });
    const expected = Number((95_000 / 130).toFixed(8));
    expect(s.celTransaction.baseAmount).toBe(expected);
    expect(Number(s.row.baseAmount)).toBe(expected);
    expect(s.fired).toContain("FX-RAW-LARGE");
    expect(s.fired).not.toContain("FX-VERY-LARGE");
    expect(s.fired).not.toContain("FX-NO-RATE");
    expect(s.fx).toEqual({
      currency: "KES",
      baseCurrency: "USD",
      amount: 95_000,
      baseAmount: expected,
      rate: 1 / 130,
      rateDates: { KES: day(-3) },
    });
  });

  it("uses the rate of the nearest earlier date", async () => {
    const s = await screen(usd, {
      id: "kes-old",
      userId: "u2",
      currencyCode: "KES",
      amount: 6_460_000,
      timestamp: at(-5),
    });
    expect(s.fx.rateDates).toEqual({ KES: day(-10) });
    expect(s.celTransaction.baseAmount).toBe(50_000);
    expect(s.fired).toContain("FX-VERY-LARGE");
  });

  it("converts through USD for a EUR-base client (cross rate)", async () => {
    const s = await screen(eur, { id: "kes-eur", currencyCode: "KES", amount: 95_000, timestamp: at(-1) });
    const rate = 0.9 / 130;
    expect(s.fx).toMatchObject({ baseCurrency: "EUR", rate, rateDates: { KES: day(-3), EUR: day(-3) } });
    expect(s.celTransaction.baseAmount).toBe(Number((95_000 * rate).toFixed(8)));
    const usdTx = await screen(eur, {
      id: "usd-eur",
      userId: "u9",
      currencyCode: "USD",
      amount: 1000,
      timestamp: at(-1),
    });
    expect(usdTx.fx).toMatchObject({ rate: 0.9, rateDates: { EUR: day(-3) } });
    expect(usdTx.celTransaction.baseAmount).toBe(900);
    const same = await screen(eur, {
      id: "eur-eur",
      userId: "u9",
      currencyCode: "EUR",
      amount: 70_000,
      timestamp: at(-1),
    });
    expect(same.celTransaction.baseAmount).toBe(70_000);
    expect(same.fired).toContain("FX-VERY-LARGE");
  });

  it("screens a currency with no rate with baseAmount absent and a note on the decision", async () => {
    const s = await screen(usd, {
      id: "tzs-1",
      userId: "u3",
      currencyCode: "TZS",
      amount: 200_000,
      timestamp: at(-1),
    });
    expect(s.celTransaction).not.toHaveProperty("baseAmount");
    expect(s.row.baseAmount).toBeNull();
    expect(s.fired).toEqual(expect.arrayContaining(["FX-NO-RATE", "FX-RAW-LARGE"]));
    expect(s.fired).not.toContain("FX-VERY-LARGE");
    expect(s.errors).toEqual([]);
    expect(s.fx.note).toBe(
      `No exchange rate for TZS on or before ${day(-1)}: transaction.baseAmount is absent`,
    );
    // before the first known rate date there is no rate either
    const early = await screen(usd, {
      id: "kes-early",
      userId: "u3",
      currencyCode: "KES",
      amount: 10,
      timestamp: at(-20),
    });
    expect(early.fired).toContain("FX-NO-RATE");
    expect(early.fx.note).toMatch(/No exchange rate for KES on or before/);
  });

  it("aggregates over baseAmount in SQL (sum, and a where filter on it)", async () => {
    await screen(usd, { id: "agg-1", userId: "agg", currencyCode: "KES", amount: 95_000, timestamp: at(-1) });
    const second = await screen(usd, {
      id: "agg-2",
      userId: "agg",
      currencyCode: "EUR",
      amount: 300,
      timestamp: at(-1) + 1000,
    });
    const third = await screen(usd, {
      id: "agg-3",
      userId: "agg",
      currencyCode: "TZS",
      amount: 5_000_000,
      timestamp: at(-1) + 2000,
    });
    const versionValues = (s: typeof second) => Object.values(s.aggregates)[0]!;
    const sum = 95_000 / 130 + 300 / 0.9;
    expect(versionValues(second).volume24h).toBeCloseTo(sum, 6);
    expect(versionValues(second).bigOnes24h).toBe(1);
    expect(second.fired).toContain("FX-VOLUME");
    // a row without a rate adds nothing to the sum
    expect(versionValues(third).volume24h).toBeCloseTo(sum, 6);
  });

  it("sees a rate imported a moment ago on the very next screening", { timeout: 240_000 }, async () => {
    const before = await screen(usd, {
      id: "ghs-1",
      userId: "u4",
      currencyCode: "GHS",
      amount: 1500,
      timestamp: at(-1),
    });
    expect(before.fired).toContain("FX-NO-RATE");
    expect(cli("fx", "import", csv("ghs.csv", `date,currency,rate\n${day(-2)},GHS,15\n`)).code).toBe(0);
    const after = await screen(usd, {
      id: "ghs-2",
      userId: "u4",
      currencyCode: "GHS",
      amount: 1500,
      timestamp: at(-1),
    });
    expect(after.celTransaction.baseAmount).toBe(100);
    expect(after.fired).not.toContain("FX-NO-RATE");
  });

  it("sees a base currency changed a moment ago on the very next screening", async () => {
    const c = await createTestClient({ name: "switches base" });
    await importRules({ clientId: c.clientId, rules: RULES });
    const a = await screen(c, { id: "sw-1", currencyCode: "EUR", amount: 90, timestamp: at(-1) });
    expect(a.celTransaction.baseAmount).toBe(100);
    await configureClient({ clientId: c.clientId, baseCurrency: "KES" });
    const b = await screen(c, { id: "sw-2", currencyCode: "EUR", amount: 90, timestamp: at(-1) });
    expect(b.fx.baseCurrency).toBe("KES");
    expect(b.celTransaction.baseAmount).toBe(Number((90 * (130 / 0.9)).toFixed(8)));
  });
});
