import { randomBytes } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FEATURES } from "@/lib/clients/schemas";
import { MAX_JSON_DEPTH } from "@/lib/validation/json-depth";
import { call, createTestClient } from "@/tests/factories";
import {
  countAllRows,
  discoverRoutes,
  expectContractError,
  type TRouteMethod,
} from "@/tests/support/fuzz-routes";

// Hostile input against every /v1 route and method found on disk, for a business and a consumer
// client with every feature: never a 5xx, always the contract's error body, nothing written on a
// rejected request. FUZZ_RUNS (runs per property per route) makes longer runs.

const RUNS = Number(process.env.FUZZ_RUNS ?? "12");
/** Per property test: longer runs get proportionally longer. */
const FUZZ_TIMEOUT = Math.max(60_000, RUNS * 8_000);
const DAY = 86_400_000;
const USER = "fz-user";
const TX = "fz-tx";
const INSTRUMENT = "fz-pi";
const now = () => Date.now() - 1000;

type TSample = { params?: Record<string, string>; body?: () => unknown; query?: Record<string, string> };

/** A valid request per route: the starting point of the one-field mutations. Every body route needs one. */
const SAMPLES: Record<string, TSample> = {
  "GET /v1/comments": { query: { limit: "10", start: "0" } },
  "GET /v1/comments/user/{userId}": { params: { userId: USER }, query: { limit: "10" } },
  "POST /v1/comments/user/{userId}": {
    params: { userId: USER },
    body: () => ({ userId: USER, comment: "Looks fine", commenterId: "rev-1", createdAt: now() }),
  },
  "POST /v1/event": {
    body: () => ({ id: "fz-ev", type: "login", method: "web", userId: USER, timestamp: now() }),
  },
  "POST /v1/merchantRequest": { body: () => ({ id: "fz-m", name: "Bakery", timestamp: now(), mcc: "5411" }) },
  "GET /v1/paymentInstrument": {},
  "PUT /v1/paymentInstrument": {
    body: () => ({
      status: "linked",
      paymentInstrument: { id: INSTRUMENT, userId: USER, method: "card", card: { fingerprint: "fp1" } },
    }),
  },
  "GET /v1/paymentInstrument/{id}": { params: { id: INSTRUMENT } },
  "POST /v1/report": {
    body: () => ({ reportType: "STR", userId: USER, transactionIds: [TX], title: "Fuzz" }),
  },
  "POST /v1/reports/bulk": { body: () => ({ reports: [{ reportType: "SAR", userId: USER }] }) },
  "GET /v1/cases": { query: { page: "1", limit: "20", status: "open" } },
  "GET /v1/cases/{caseId}": { params: { caseId: "fz-case" } },
  "GET /v1/reports": { query: { page: "1", limit: "20", status: "draft" } },
  "GET /v1/reports/{reportId}": { params: { reportId: "fz-report" }, query: { include: "content,audit" } },
  "GET /v1/rules": {},
  "POST /v1/transaction": {
    body: () => ({
      id: TX,
      userId: USER,
      status: "APPROVED",
      currencyCode: "USD",
      amount: 25,
      timestamp: now(),
      paymentMethod: "card",
      card: { cardFingerprint: "fp1", expiryMonth: "01" },
    }),
  },
  "GET /v1/transaction/{id}": { params: { id: TX } },
  "GET /v1/transaction/update": {},
  "POST /v1/transaction/update": { body: () => ({ transactionId: TX, status: "APPROVED", reason: "R01" }) },
  "POST /v1/user": {
    body: () => ({
      id: USER,
      timestamp: now(),
      firstName: "Ada",
      email: { email: "ada@example.com" },
      phone: { phone: "+4470000" },
    }),
  },
  "POST /v1/user/onboard": { body: () => ({ id: USER, timestamp: now(), firstName: "Ada" }) },
  "POST /v1/user/device": {
    body: () => ({ userId: USER, device: { id: "fz-dev", ipAddress: "192.0.2.1", platform: "web" } }),
  },
  "POST /v1/user/feedback": {
    body: () => ({
      userId: USER,
      onboardingFeedback: { status: "APPROVED", description: "ok", createdAt: now() },
    }),
  },
  "PUT /v1/users/{userId}/block": {
    params: { userId: USER },
    body: () => ({ comment: "fuzz", reviewer: "r1" }),
  },
  "PUT /v1/users/{userId}/unblock": {
    params: { userId: USER },
    body: () => ({ comment: "fuzz", reviewer: "r1" }),
  },
  "PUT /v1/users/{userId}/status": {
    params: { userId: USER },
    body: () => ({
      status: "active",
      completedAt: now(),
      closureType: "user_requested",
      reason: "NO_REASON",
    }),
  },
  "GET /v1/users/{userId}": { params: { userId: USER } },
  "GET /v1/users/{userId}/links": {
    params: { userId: USER },
    query: { depth: "2", kinds: "email,deviceFingerprint" },
  },
  "PUT /v1/users/attributes/status": {
    body: () => ({
      attribute: "email",
      value: "ada@example.com",
      status: "ACTIVE",
      comment: "c",
      reviewer: "r",
    }),
  },
  "GET /v1/users/blocked": { query: { limit: "10" } },
  "GET /v1/users/transactions/{transactionId}": { params: { transactionId: TX } },
  "PUT /v1/users/transactions/{transactionId}/status": {
    params: { transactionId: TX },
    body: () => ({ status: "active", parties: "user", comment: "c", reviewer: "r" }),
  },
  "GET /v1/webhooks": {},
  "POST /v1/webhooks": {
    body: () => ({
      url: "https://hooks.example.com/in",
      events: ["transaction.screened"],
      secret: "whsec_fuzz-secret",
    }),
  },
};

// ---- hostile values -------------------------------------------------------------------------------

/** 5,000 levels of nesting: too deep for JSON.stringify here, so written as text when the body is sent. */
class Deep {
  constructor(
    readonly depth: number,
    readonly kind: "array" | "object",
  ) {}
  text(): string {
    return this.kind === "array"
      ? "[".repeat(this.depth) + "1" + "]".repeat(this.depth)
      : '{"a":'.repeat(this.depth) + "1" + "}".repeat(this.depth);
  }
  [fc.toStringMethod](): string {
    return `<${this.depth}-deep ${this.kind}>`;
  }
}
const DEEP_OBJECT = new Deep(5000, "object");
const DEEP_ARRAY = new Deep(5000, "array");

/** JSON text of a body that may hold Deep values. */
function jsonText(body: unknown): string | undefined {
  const deep: Deep[] = [];
  const text = JSON.stringify(body, (_k, v: unknown) =>
    v instanceof Deep ? `\u0001DEEP${deep.push(v) - 1}\u0001` : v,
  );
  return text?.replace(/"\\u0001DEEP(\d+)\\u0001"/g, (_m, i: string) => deep[Number(i)]!.text());
}

/** Incompressible and longer than a PostgreSQL index entry may be. */
const LONG_ID = randomBytes(2500).toString("hex");

const edgeNumber = fc.oneof(
  fc.constantFrom(
    1e308,
    -1e308,
    -0,
    Number.MAX_SAFE_INTEGER + 2,
    Number.MIN_SAFE_INTEGER - 2,
    -1,
    0,
    0.5,
    5e-324,
    2 ** 31,
    2 ** 63,
    1_700_000_000_000.5, // fractional timestamp
    8.64e15, // the last representable date
    -8.64e15,
    8_640_000_000_000_001, // one past it: new Date() is Invalid Date
    -8_640_000_000_000_001,
    253_402_300_800_000, // 10000-01-01: a JavaScript date, not a PostgreSQL one
    1e21, // String() gives "1e+21"
    1, // 1970
  ),
  fc
    .constantFrom("future", "ancient")
    .map((w) => (w === "future" ? Date.now() + 400 * DAY : Date.now() - 400 * 365 * DAY)),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

const hostileString = fc.oneof(
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "a\u0000b",
    "\uD800", // lone surrogate
    "\uFEFF",
    "😀👩‍👩‍👧‍👦🇰🇪",
    "Ⅻ͇̿ ̶̡̟ ᠎ ",
    "' OR 1=1 --",
    '"; DROP TABLE "User"; --',
    "<script>alert(1)</script>",
    "../../../etc/passwd",
    "%00%2e%2e",
    "${jndi:ldap://x}",
    "__proto__",
    "constructor",
    "null",
    "NaN",
    "Infinity",
    "1e308",
    "-0",
    "0x10",
    "9".repeat(40),
    "APPROVED ",
    "approved",
    "2026-11-22T00:00:00Z",
  ),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.constantFrom(1_000, 70_000).map((n) => "é😀".repeat(n)),
  fc.constant(LONG_ID),
);

const leaf = fc.oneof(edgeNumber, hostileString, fc.boolean(), fc.constant(null));
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: leaf },
  { weight: 1, arbitrary: fc.array(leaf, { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.dictionary(hostileString, leaf, { maxKeys: 4 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(DEEP_OBJECT, DEEP_ARRAY, {}, [], { __proto__: { polluted: true } }),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

type TBodyCase = { label: string; body?: unknown; rawBody?: string };

const hostileBody: fc.Arbitrary<TBodyCase> = fc.oneof(
  hostileValue.map((body) => ({ label: "hostile JSON body", body })),
  fc
    .constantFrom(
      "",
      "   ",
      "{",
      '{"a":',
      "{'a': 1}",
      '{"a": NaN}',
      '{"a": Infinity}',
      '{"a": 1,}',
      "[1, 2,]",
      "undefined",
      "\u0000",
      '{"a": "\\ud800"}',
      '{"a": 1} trailing',
      "\uFEFF{}",
      '{"__proto__": {"isAdmin": true}}',
      "[]",
      "null",
      "true",
      "0",
      '"string"',
      "[".repeat(5000) + "]".repeat(5000),
      '{"a":'.repeat(5000) + "1" + "}".repeat(5000),
    )
    .map((rawBody) => ({ label: "raw text body", rawBody })),
  fc.constantFrom(300_000, 2_000_000).map((n) => ({ label: `${n}-char body`, body: { id: "x".repeat(n) } })),
);

// ---- mutations of a valid sample -------------------------------------------------------------------

type TPath = (string | number)[];

function pathsOf(value: unknown, prefix: TPath = []): TPath[] {
  if (value === null || typeof value !== "object") return [];
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return entries.flatMap(([k, v]) => [[...prefix, k], ...pathsOf(v, [...prefix, k])]);
}

function mutate(body: unknown, path: TPath, op: "delete" | "replace" | "extra", value: unknown): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let parent: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (op === "delete") {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else if (op === "replace") parent[last] = value;
  else {
    const target = parent[last];
    if (target && typeof target === "object" && !Array.isArray(target))
      (target as Record<string, unknown>)["fz_extra"] = value;
    else parent["fz_extra"] = value;
  }
  return copy;
}

// ---- the harness -----------------------------------------------------------------------------------

type TClientKey = { label: string; apiKey: string };
let clients: TClientKey[] = [];
let routes: TRouteMethod[] = [];
const stats = { requests: 0, rejected: 0, fiveXX: 0 };

async function fire(
  route: TRouteMethod,
  client: TClientKey,
  req: { params?: Record<string, string>; query?: Record<string, string>; body?: unknown; rawBody?: string },
  label: string,
): Promise<void> {
  const before = await countAllRows();
  const res = await call(route.handler, {
    apiKey: client.apiKey,
    method: route.method,
    params: req.params,
    query: req.query,
    ...(route.method === "GET" ? {} : { rawBody: req.rawBody ?? jsonText(req.body) }),
  });
  stats.requests++;
  const context = `${client.label} ${route.key} (${label}) params=${JSON.stringify(req.params)?.slice(0, 200)} query=${JSON.stringify(req.query)?.slice(0, 200)} body=${(req.rawBody ?? jsonText(req.body) ?? "").slice(0, 300)}`;
  if (res.status >= 500) stats.fiveXX++;
  expect(res.status, `${context} → ${JSON.stringify(res.body)?.slice(0, 300)}`).toBeLessThan(500);
  if (res.status >= 200 && res.status < 300) return;
  stats.rejected++;
  expectContractError(res, context);
  expect(await countAllRows(), `rows written by a rejected request: ${context}`).toEqual(before);
}

const sampleOf = (route: TRouteMethod) => SAMPLES[route.key] ?? {};
const withBody = (route: TRouteMethod) => route.method !== "GET";

beforeAll(async () => {
  routes = await discoverRoutes();
  const business = await createTestClient({
    type: "business",
    features: [...FEATURES],
    name: "Fuzz business",
  });
  const consumer = await createTestClient({
    type: "consumer",
    features: [...FEATURES],
    name: "Fuzz consumer",
  });
  clients = [
    { label: "business", apiKey: business.apiKey },
    { label: "consumer", apiKey: consumer.apiKey },
  ];
  // Valid fixtures the samples refer to, for both clients.
  const byKey = new Map(routes.map((r) => [r.key, r]));
  for (const client of clients)
    for (const key of ["POST /v1/user", "POST /v1/transaction", "PUT /v1/paymentInstrument"]) {
      const route = byKey.get(key)!;
      const res = await call(route.handler, {
        apiKey: client.apiKey,
        method: route.method,
        body: SAMPLES[key]!.body!(),
      });
      expect(res.status, `${key}: ${JSON.stringify(res.body)}`).toBe(200);
    }
  // GET /v1/transaction/update reads the transaction whose id is "update"
  for (const client of clients) {
    const res = await call(byKey.get("POST /v1/transaction")!.handler, {
      apiKey: client.apiKey,
      method: "POST",
      body: { ...(SAMPLES["POST /v1/transaction"]!.body!() as Record<string, unknown>), id: "update" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
});

afterAll(() => {
  console.log(`fuzz: ${stats.requests} requests, ${stats.rejected} rejected, ${stats.fiveXX} 5xx`);
});

describe("hostile input on every /v1 route", () => {
  it("finds the routes on disk and has a valid sample for every route and method", async () => {
    expect(routes.length).toBeGreaterThan(20);
    const missing = routes.filter((r) => !SAMPLES[r.key]).map((r) => r.key);
    expect(missing, "add a valid sample to SAMPLES for these routes").toEqual([]);
    // The samples really are valid: the mutations start from an accepted request.
    for (const route of routes)
      for (const client of clients) {
        const sample = sampleOf(route);
        const res = await call(route.handler, {
          apiKey: client.apiKey,
          method: route.method,
          params: sample.params,
          query: sample.query,
          body: withBody(route) ? sample.body?.() : undefined,
        });
        const expected =
          route.key === "GET /v1/paymentInstrument" // the contract's "400 id missing"
            ? 400
            : route.key === "POST /v1/merchantRequest" && client.label === "consumer"
              ? 403
              : route.key === "GET /v1/reports/{reportId}" || route.key === "GET /v1/cases/{caseId}" // ids are the service's: 404 is the valid answer
                ? 404
                : 200;
        expect(res.status, `${client.label} ${route.key}: ${JSON.stringify(res.body)?.slice(0, 300)}`).toBe(
          expected,
        );
      }
  });

  it(
    "survives hostile whole bodies: wrong types, arrays, deep nesting, huge, invalid JSON, empty",
    async () => {
      for (const route of routes.filter(withBody))
        for (const client of clients)
          await fc.assert(
            fc.asyncProperty(hostileBody, async (c) => {
              await fire(
                route,
                client,
                { params: sampleOf(route).params, body: c.body, rawBody: c.rawBody },
                c.label,
              );
            }),
            { numRuns: RUNS },
          );
    },
    FUZZ_TIMEOUT,
  );

  it(
    "survives one-field mutations of a valid body: missing, wrong type, edge numbers, timestamps, extra fields",
    async () => {
      for (const route of routes.filter(withBody))
        for (const client of clients) {
          const sample = sampleOf(route);
          const paths = pathsOf(sample.body?.());
          if (paths.length === 0) continue;
          await fc.assert(
            fc.asyncProperty(
              fc.constantFrom(...paths),
              fc.constantFrom("delete", "replace", "replace", "extra"),
              hostileValue,
              async (path, op, value) => {
                const body = mutate(sample.body!(), path, op as "delete" | "replace" | "extra", value);
                await fire(route, client, { params: sample.params, body }, `${op} /${path.join("/")}`);
              },
            ),
            { numRuns: RUNS * 2 },
          );
        }
    },
    FUZZ_TIMEOUT,
  );

  it(
    "survives hostile path parameters",
    async () => {
      for (const route of routes.filter((r) => r.params.length > 0))
        for (const client of clients) {
          const sample = sampleOf(route);
          await fc.assert(
            fc.asyncProperty(fc.constantFrom(...route.params), hostileString, async (name, value) => {
              const params = { ...sample.params, [name]: value };
              await fire(
                route,
                client,
                { params, query: sample.query, body: sample.body?.() },
                `param ${name}`,
              );
            }),
            { numRuns: RUNS },
          );
        }
    },
    FUZZ_TIMEOUT,
  );

  it(
    "survives hostile query strings",
    async () => {
      const queryKey = fc.constantFrom(
        "start",
        "end",
        "limit",
        "page",
        "include",
        "status",
        "reportType",
        "userId",
        "transactionId",
        "reportNumber",
        "createdFrom",
        "createdTo",
        "cursor",
        "id",
      );
      const queryValue = fc.oneof(hostileString, edgeNumber.map(String));
      for (const route of routes.filter((r) => r.method === "GET"))
        for (const client of clients) {
          const sample = sampleOf(route);
          await fc.assert(
            fc.asyncProperty(
              fc.dictionary(queryKey, queryValue, { minKeys: 1, maxKeys: 3 }),
              async (extra) => {
                await fire(
                  route,
                  client,
                  { params: sample.params, query: { ...sample.query, ...extra } },
                  "query",
                );
              },
            ),
            { numRuns: RUNS },
          );
        }
    },
    FUZZ_TIMEOUT,
  );

  // Found by this fuzzer: PostgreSQL refuses U+0000 in text and jsonb, which was a 500.
  it("refuses NUL characters and unpaired surrogates in body, path and query with a 400 naming the field", async () => {
    const [business] = clients;
    const byKey = new Map(routes.map((r) => [r.key, r]));
    const user = byKey.get("POST /v1/user")!;
    const res = await call(user.handler, {
      apiKey: business!.apiKey,
      body: { id: "a\u0000b", timestamp: now() },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual(["/id: String must not contain NUL characters"]);
    const get = byKey.get("GET /v1/users/{userId}")!;
    const byPath = await call(get.handler, { apiKey: business!.apiKey, params: { userId: "\u0000" } });
    expect(byPath.status).toBe(400);
    expect(byPath.body.error.details).toEqual(["/userId: String must not contain NUL characters"]);
    const list = byKey.get("GET /v1/users/blocked")!;
    const byQuery = await call(list.handler, { apiKey: business!.apiKey, query: { start: "x\u0000" } });
    expect(byQuery.status).toBe(400);
    expect(byQuery.body.error.details).toEqual(["/start: String must not contain NUL characters"]);
    // jsonb refuses an unpaired surrogate escape (also found by this fuzzer: a 500 on feedback).
    const feedback = byKey.get("POST /v1/user/feedback")!;
    const body = {
      userId: USER,
      onboardingFeedback: { status: "APPROVED", description: "\uD800", createdAt: now() },
    };
    const rows = await countAllRows();
    const lone = await call(feedback.handler, { apiKey: business!.apiKey, body });
    expect(lone.status).toBe(400);
    expect(lone.body.error.details).toEqual([
      "/onboardingFeedback/description: String must not contain unpaired UTF-16 surrogates",
    ]);
    expect(await countAllRows()).toEqual(rows);
  });

  // Found by this fuzzer: an id longer than an index entry may be was a 500.
  it("refuses ids too long to index with a 400 and stores nothing", async () => {
    const byKey = new Map(routes.map((r) => [r.key, r]));
    for (const client of clients)
      for (const key of [
        "POST /v1/event",
        "POST /v1/transaction",
        "POST /v1/user",
        "PUT /v1/paymentInstrument",
      ]) {
        const route = byKey.get(key)!;
        const body = mutate(
          SAMPLES[key]!.body!(),
          key === "PUT /v1/paymentInstrument" ? ["paymentInstrument", "id"] : ["id"],
          "replace",
          LONG_ID,
        );
        const rejected = stats.rejected;
        await fire(route, client, { body }, "long id");
        expect(stats.rejected, key).toBe(rejected + 1);
      }
  });

  // Found by an attacker: `metadata` 5,000 levels deep was a 500 (RangeError in JSON.stringify), and so was
  // `crypto` 10,000 levels deep. Every field of every body, nested that deep, is a 400 naming the field.
  it("refuses every field of every body nested 5,000 or 10,000 levels deep with a 400 naming it", async () => {
    const [business] = clients;
    let checked = 0;
    for (const route of routes.filter(withBody)) {
      const sample = sampleOf(route);
      for (const path of pathsOf(sample.body?.()))
        for (const deep of [DEEP_OBJECT, new Deep(10_000, "array")]) {
          const body = mutate(sample.body!(), path, "replace", deep);
          const rows = await countAllRows();
          const res = await call(route.handler, {
            apiKey: business!.apiKey,
            method: route.method,
            params: sample.params,
            rawBody: jsonText(body),
          });
          const context = `${route.key} /${path.join("/")} ${deep[fc.toStringMethod]()}`;
          expect(res.status, `${context}: ${JSON.stringify(res.body)}`).toBe(400);
          expect(res.body.error.details, context).toHaveLength(1);
          expect(res.body.error.details[0], context).toMatch(
            new RegExp(
              `^/${String(path[0])}(/[^:]*)?: must be nested at most ${MAX_JSON_DEPTH} levels deep$`,
            ),
          );
          expect(await countAllRows(), context).toEqual(rows);
          checked++;
        }
    }
    expect(checked).toBeGreaterThan(100);
    // the two that were 500s, by name
    const byKey = new Map(routes.map((r) => [r.key, r]));
    const event = mutate(SAMPLES["POST /v1/event"]!.body!(), ["metadata"], "replace", DEEP_OBJECT);
    const eventRes = await call(byKey.get("POST /v1/event")!.handler, {
      apiKey: business!.apiKey,
      rawBody: jsonText(event),
    });
    expect(eventRes.body.error.details).toEqual([
      `/metadata/a: must be nested at most ${MAX_JSON_DEPTH} levels deep`,
    ]);
    const instrument = SAMPLES["PUT /v1/paymentInstrument"]!.body!() as Record<string, any>;
    instrument.paymentInstrument.crypto = new Deep(10_000, "object");
    const instrumentRes = await call(byKey.get("PUT /v1/paymentInstrument")!.handler, {
      apiKey: business!.apiKey,
      method: "PUT",
      rawBody: jsonText(instrument),
    });
    expect(instrumentRes.status).toBe(400);
    expect(instrumentRes.body.error.details).toEqual([
      `/paymentInstrument/crypto: must be nested at most ${MAX_JSON_DEPTH} levels deep`,
    ]);
    // exactly the limit is fine
    const atLimit = mutate(
      SAMPLES["POST /v1/event"]!.body!(),
      ["metadata"],
      "replace",
      new Deep(MAX_JSON_DEPTH - 1, "object"),
    );
    const okRes = await call(byKey.get("POST /v1/event")!.handler, {
      apiKey: business!.apiKey,
      rawBody: jsonText(atLimit),
    });
    expect(okRes.status, JSON.stringify(okRes.body)).toBe(200);
  });

  // Found by an attacker: `?end=8640000000000001` (one past the last JavaScript date) was a 500.
  it("refuses times outside 1970..9999 in every number of every body and every time query with a 400", async () => {
    const [business] = clients;
    const extremes = [8_640_000_000_000_001, -8_640_000_000_000_001, 253_402_300_800_000, 1e308];
    for (const route of routes.filter(withBody)) {
      const sample = sampleOf(route);
      const numeric = pathsOf(sample.body?.()).filter((p) => {
        let v: any = sample.body!();
        for (const k of p) v = v?.[k];
        return typeof v === "number";
      });
      for (const path of numeric)
        for (const value of extremes)
          await fire(
            route,
            business!,
            { params: sample.params, body: mutate(sample.body!(), path, "replace", value) },
            `/${path.join("/")} = ${value}`,
          );
    }
    const timeKeys = ["start", "end", "createdFrom", "createdTo"];
    let named = 0;
    for (const route of routes.filter((r) => r.method === "GET"))
      for (const key of timeKeys)
        for (const value of ["8640000000000001", "-8640000000000001", "253402300800000"]) {
          const sample = sampleOf(route);
          const before = stats.fiveXX;
          await fire(
            route,
            business!,
            { params: sample.params, query: { ...sample.query, [key]: value } },
            `?${key}=${value}`,
          );
          expect(stats.fiveXX).toBe(before);
          const res = await call(route.handler, {
            apiKey: business!.apiKey,
            params: sample.params,
            query: { ...sample.query, [key]: value },
          });
          if (res.status === 400 && res.body.error.details?.some((d: string) => d.startsWith(`/${key}:`)))
            named++;
        }
    // the comment lists (start, end) and the report list (createdFrom, createdTo) name the field
    expect(named).toBeGreaterThanOrEqual(12);
  });

  it("answered every fuzzed request without a 5xx", () => {
    expect(stats.requests).toBeGreaterThan(RUNS * 100);
    expect(stats.fiveXX).toBe(0);
  });
});
