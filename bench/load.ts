// The screening load of the benches: POST /v1/transaction with the bench's varied transactions.
import autocannon from "autocannon";

/**
 * The users of a bench history of `rows` transactions over 30 days: 50,000, or one for every 20 transactions when
 * that is more (a client with more transactions has more customers: from 1,000,000 rows up about 20 a month each,
 * where a fixed 50,000 gave each of them 200 a month at 10,000,000 rows). Each user pays with its own card
 * (`fp-<user>`) from its own device (`d-<user>`), in the history as in the load.
 */
export function benchUsers(rows: number): number {
  return Math.max(50_000, Math.round(rows / 20));
}

/**
 * The n-th transaction of a bench run over a history with `users` users (users, merchants, cards and devices of
 * the loaded history; one in 50 by a user with a long history). `merchantId` sends every one to that merchant
 * (the hot merchant's level).
 */
export function benchTransaction(
  id: string,
  seq: number,
  users: number,
  merchantId?: string,
): Record<string, unknown> {
  const userId = seq % 50 === 0 ? `u-long-${(seq / 50) % 10}` : `u${seq % users}`;
  return {
    id,
    userId,
    merchantId: merchantId ?? `m${seq % 500}`,
    status: "PENDING",
    currencyCode: "USD",
    amount: (seq * 37) % 15000,
    direction: seq % 3 === 0 ? "payout" : "payin",
    timestamp: Date.now() - 1000,
    paymentMethod: "card",
    card: { cardFingerprint: `fp-${userId}`, bin: "411111", binCountry: "US" },
    userDeviceId: `d-${userId}`,
  };
}

/**
 * The bench's place in the sequence of transactions (`next`: the number of the last one sent): each load goes on
 * from where the previous one stopped (kept in the bench state between runs), so that no level, and no later run
 * on the same database, screens the same users again until the sequence has gone round them all (a user screened
 * twice within a day can cross a rule's 24 h threshold, and later levels would raise more alerts than earlier
 * ones). The long-history users are screened every 50th transaction on purpose.
 */
export type TBenchSequence = { next: number };

/** autocannon against POST /v1/transaction, each request a new transaction `<prefix>-<n>`. */
export function screeningLoad(options: {
  port: number;
  apiKey: string;
  /** The users of the loaded history (`benchUsers`). */
  users: number;
  sequence: TBenchSequence;
  connections: number;
  duration: number;
  prefix: string;
  merchantId?: string;
}): Promise<autocannon.Result> {
  return autocannon({
    url: `http://127.0.0.1:${options.port}/v1/transaction`,
    method: "POST",
    connections: options.connections,
    duration: options.duration,
    headers: { authorization: `Bearer ${options.apiKey}`, "content-type": "application/json" },
    requests: [
      {
        setupRequest: (req) => {
          const seq = ++options.sequence.next;
          req.body = JSON.stringify(
            benchTransaction(`${options.prefix}-${seq}`, seq, options.users, options.merchantId),
          );
          return req;
        },
      },
    ],
  });
}
