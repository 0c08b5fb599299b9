// What an aggregate costs at screening: read from the time buckets (a cost that does not grow with the
// window), from the distinct values per day (countDistinct: one row per day and value, not per transaction)
// or from the raw rows of its window. Pure: the rule editor shows it as the admin types, and the
// screening's SQL (lib/screening/aggregates.ts) takes its plan from here.
/** The group dimensions kept in transaction_buckets (its column "dim"). */
export const BUCKET_DIMS: Readonly<Record<string, number>> = {
  userId: 1,
  merchantId: 2,
  accountId: 3,
  userDeviceId: 4,
  "card.cardFingerprint": 5,
};

/** The bucket columns of each field kept: count, sum, min, max, and the transactions column. */
export const BUCKET_FIELDS = {
  amount: { count: "count", sum: "amountSum", min: "amountMin", max: "amountMax", column: `"amount"` },
  baseAmount: { count: "baseCount", sum: "baseSum", min: "baseMin", max: "baseMax", column: `"baseAmount"` },
} as const;

export type TBucketField = (typeof BUCKET_FIELDS)[keyof typeof BUCKET_FIELDS];

// strings: the rule editor asks while the admin types, before the definition is valid
type TAggregateShape = { function: string; over: string; groupBy: string; field?: string; where?: string };

/** How a bucketed aggregate reads transaction_buckets, or null when it reads the raw window. */
export function bucketPlan(spec: TAggregateShape): { dim: number; field: TBucketField } | null {
  if (spec.over !== "transaction" || spec.where || spec.function === "countDistinct") return null;
  const dim = BUCKET_DIMS[spec.groupBy];
  if (!dim) return null;
  const field =
    spec.function === "count"
      ? BUCKET_FIELDS.amount
      : spec.field === "amount" || spec.field === "baseAmount"
        ? BUCKET_FIELDS[spec.field]
        : null;
  return field ? { dim, field } : null;
}

/**
 * How an exact countDistinct reads transaction_distinct_values (migration 20261127060200_transaction_distinct), or null
 * when it reads the raw window: a transaction countDistinct with no where filter, grouped by one of BUCKET_DIMS
 * and counting another of them. Its (dim, field) pair is registered when a rule version using it is written.
 */
export function distinctPlan(spec: TAggregateShape): { dim: number; field: number } | null {
  if (spec.over !== "transaction" || spec.where || spec.function !== "countDistinct") return null;
  const dim = BUCKET_DIMS[spec.groupBy];
  const field = spec.field ? BUCKET_DIMS[spec.field] : undefined;
  return dim && field && dim !== field ? { dim, field } : null;
}

/** The (dim, field) pairs of a rule's aggregates that distinctPlan reads from transaction_distinct_values. */
export function distinctPairs(
  aggregates: Record<string, TAggregateShape> | undefined,
): Array<{ dim: number; field: number }> {
  const pairs = new Map<string, { dim: number; field: number }>();
  for (const spec of Object.values(aggregates ?? {})) {
    const plan = distinctPlan(spec);
    if (plan) pairs.set(`${plan.dim}:${plan.field}`, plan);
  }
  return [...pairs.values()];
}

/** Why an aggregate reads the raw rows of its whole window (its cost grows with them), or null if it does not. */
export function rawWindowReason(spec: TAggregateShape): string | null {
  if (bucketPlan(spec) || distinctPlan(spec)) return null;
  if (spec.over !== "transaction") return "aggregates over events read the raw window";
  if (spec.where) return "a where filter reads the raw window";
  if (spec.function === "countDistinct") {
    return `countDistinct of ${spec.field || "(no field)"} by ${spec.groupBy || "(none)"} reads the raw window (kept per day: one of ${Object.keys(BUCKET_DIMS).join(", ")} by another)`;
  }
  if (!BUCKET_DIMS[spec.groupBy]) {
    return `grouping by ${spec.groupBy || "(none)"} reads the raw window (kept in buckets: ${Object.keys(BUCKET_DIMS).join(", ")})`;
  }
  return `${spec.function} of ${spec.field || "(no field)"} reads the raw window (kept in buckets: count, and amount or baseAmount)`;
}

/** Whether an aggregate reads the raw rows of its whole window rather than the time buckets or the day values. */
export function readsRawWindow(spec: TAggregateShape): boolean {
  return rawWindowReason(spec) !== null;
}
