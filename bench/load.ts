// The screening load of the benches: POST /v1/transaction with the bench's varied transactions.
import autocannon from "autocannon";

/**
 * The n-th transaction of a bench run (users, merchants, cards and devices of the loaded history; one in 50 by a
 * user with a long history). `merchantId` sends every one to that merchant (the hot merchant's level).
 */
export function benchTransaction(id: string, seq: number, merchantId?: string): Record<string, unknown> {
  return {
    id,
    userId: seq % 50 === 0 ? `u-long-${(seq / 50) % 10}` : `u${seq % 50_000}`,
    merchantId: merchantId ?? `m${seq % 500}`,
    status: "PENDING",
    currencyCode: "USD",
    amount: (seq * 37) % 15000,
    direction: seq % 3 === 0 ? "payout" : "payin",
    timestamp: Date.now() - 1000,
    paymentMethod: "card",
    card: { cardFingerprint: `fp${seq % 70000}`, bin: "411111", binCountry: "US" },
    userDeviceId: `d${seq % 60000}`,
  };
}

/** autocannon against POST /v1/transaction, each request a new transaction `<prefix>-<n>`. */
export function screeningLoad(options: {
  port: number;
  apiKey: string;
  connections: number;
  duration: number;
  prefix: string;
  merchantId?: string;
}): Promise<autocannon.Result> {
  let seq = 0;
  return autocannon({
    url: `http://127.0.0.1:${options.port}/v1/transaction`,
    method: "POST",
    connections: options.connections,
    duration: options.duration,
    headers: { authorization: `Bearer ${options.apiKey}`, "content-type": "application/json" },
    requests: [
      {
        setupRequest: (req) => {
          seq++;
          req.body = JSON.stringify(benchTransaction(`${options.prefix}-${seq}`, seq, options.merchantId));
          return req;
        },
      },
    ],
  });
}
