// In-process CPU cost of evaluating rules, without a database: the demo rules against a typical
// transaction (what one screening evaluates), and how long a rule stopped by the runtime budget holds
// the process. Measures what the budget's hooks (lib/rules/evaluation-budget.ts) add per screening.
// npx tsx bench/rule-evaluation.ts [screenings, default 20000]
import { compileCondition, evaluateCondition } from "@/lib/rules/cel";
import { DEMO_RULES } from "@/lib/rules/demo-rules";

const SCREENINGS = Number(process.argv[2] ?? 20_000);

const rules = DEMO_RULES.filter((r) => r.subject === "transaction").map((r) => ({
  id: r.id,
  compiled: compileCondition("transaction", r.condition),
  aggregates: Object.fromEntries(Object.keys(r.aggregates ?? {}).map((name) => [name, 2])),
}));

const variables = {
  transaction: {
    id: "t-1",
    userId: "u-1",
    status: "PENDING",
    currencyCode: "EUR",
    amount: 9500,
    baseAmount: 9500,
    timestamp: Date.now(),
    direction: "payout",
    paymentMethod: "card",
    card: { cardFingerprint: "fp-1", binCountry: "DE" },
  },
  user: { id: "u-1", status: "active", createdAt: Date.now() - 86_400_000, address: { country: "DE" } },
  merchant: {},
};

function screenOnce(): number {
  let errors = 0;
  for (const rule of rules) {
    try {
      evaluateCondition("transaction", rule.compiled, variables, rule.aggregates);
    } catch {
      errors++;
    }
  }
  return errors;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

for (let i = 0; i < 2_000; i++) screenOnce(); // warm up the JIT
const samples: number[] = [];
const started = process.cpuUsage();
for (let i = 0; i < SCREENINGS; i++) {
  const t = performance.now();
  screenOnce();
  samples.push((performance.now() - t) * 1000);
}
const cpu = process.cpuUsage(started);
samples.sort((a, b) => a - b);
console.log(
  `[bench] ${rules.length} demo transaction rules per screening, ${SCREENINGS} screenings: ` +
    `CPU ${((cpu.user + cpu.system) / SCREENINGS).toFixed(2)} µs/screening, ` +
    `p50 ${percentile(samples, 0.5).toFixed(2)} µs, p99 ${percentile(samples, 0.99).toFixed(2)} µs`,
);

// a rule within the static bound over a request list 10x the assumed size: stopped by the budget
const quadratic = compileCondition(
  "transaction",
  "transaction.recipients.all(a, transaction.recipients.all(b, a.amount + b.amount >= 0.0))",
);
const recipients = Array.from({ length: 1_000 }, (_, i) => ({ amount: i }));
const held: number[] = [];
let message = "";
for (let i = 0; i < 10; i++) {
  const t = performance.now();
  try {
    evaluateCondition("transaction", quadratic, { transaction: { recipients } }, {});
    message = "not stopped";
  } catch (err) {
    message = (err as Error).message;
  }
  held.push(performance.now() - t);
}
held.sort((a, b) => a - b);
console.log(
  `[bench] quadratic rule over 1,000 recipients: held the process ${percentile(held, 0.5).toFixed(1)} ms ` +
    `(max ${held[held.length - 1]!.toFixed(1)} ms of 10), ${message}`,
);
