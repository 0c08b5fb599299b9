import type { TContent, TContentNode } from "@/lib/reports/content";

// Values the FIU's schema accepts but a regulator would question: a zero or negative amount, a birth date in the
// future or more than 120 years ago, a transaction after the report's submission date, a submission date in the
// future. They never make a report incomplete (that is `reportProblems`); they hold a report back from review and
// filing until an officer confirms them with a note (`transition-report.ts`), and the confirmation is in the
// report's own audit trail.

export type TReportWarning = { path: string; message: string };

/** Every element holding an amount of money; balances are left out, since a balance may rightly be negative. */
const AMOUNT = /(^|_)amount(_|$)/;
const BIRTH = new Set(["birthdate", "birth_date", "incorporation_date"]);
const TRANSACTION_DATE = new Set(["date_transaction", "value_date"]);
const MAX_AGE_YEARS = 120;

/** The day of a goAML date (`1985-03-14T00:00:00`), or null when it is not one. */
function dayOf(value: TContentNode | undefined): string | null {
  return typeof value === "string" && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : null;
}

function amountOf(value: TContentNode): number | null {
  if (typeof value === "number") return value;
  if (typeof value !== "string" || !/^\s*[+-]?[\d,\s]*\.?\d+\s*$/.test(value)) return null;
  return Number(value.replace(/[,\s]/g, ""));
}

/**
 * What a regulator would question in a report, in words with the value, by content path. `now` stands for the
 * submission date when the report has none yet.
 */
export function reportWarnings(content: TContent, now: Date): TReportWarning[] {
  const today = now.toISOString().slice(0, 10);
  const submitted = dayOf(content.submission_date);
  const deadline = submitted ?? today;
  const oldest = `${String(now.getUTCFullYear() - MAX_AGE_YEARS).padStart(4, "0")}${today.slice(4)}`;
  const out: TReportWarning[] = [];
  const walk = (node: TContentNode | undefined, p: string, key: string) => {
    if (node === null || node === undefined) return;
    if (Array.isArray(node)) return node.forEach((v, i) => walk(v, `${p}[${i}]`, key));
    if (typeof node === "object") {
      for (const [k, v] of Object.entries(node)) walk(v, p ? `${p}.${k}` : k, k);
      return;
    }
    if (AMOUNT.test(key)) {
      const amount = amountOf(node);
      if (amount !== null && amount <= 0)
        out.push({
          path: p,
          message: `The amount is ${amount < 0 ? "negative" : "zero"} (${String(node).trim()}): an FIU expects a positive amount`,
        });
      return;
    }
    const day = dayOf(node);
    if (!day) return;
    const what = key === "incorporation_date" ? "incorporation date" : "birth date";
    if (BIRTH.has(key) && day > today) out.push({ path: p, message: `The ${what} ${day} is in the future` });
    else if (BIRTH.has(key) && day < oldest)
      out.push({ path: p, message: `The ${what} ${day} is more than ${MAX_AGE_YEARS} years ago` });
    else if (TRANSACTION_DATE.has(key) && day > deadline)
      out.push({
        path: p,
        message: submitted
          ? `The ${key === "value_date" ? "value date" : "transaction date"} ${day} is after the report's submission date ${submitted}`
          : `The ${key === "value_date" ? "value date" : "transaction date"} ${day} is in the future`,
      });
    else if (p === "submission_date" && day > today)
      out.push({ path: p, message: `The submission date ${day} is in the future` });
  };
  walk(content, "", "");
  return out;
}

type TTrailEntry = { action: string; changes: unknown };

function stringsIn(node: unknown, out: string[] = []): string[] {
  if (typeof node === "string") out.push(node);
  else if (Array.isArray(node)) node.forEach((v) => stringsIn(v, out));
  else if (node && typeof node === "object")
    for (const [k, v] of Object.entries(node)) {
      out.push(k);
      stringsIn(v, out);
    }
  return out;
}

function touches(changedPath: string, path: string): boolean {
  return path === changedPath || path.startsWith(`${changedPath}.`) || path.startsWith(`${changedPath}[`);
}

/**
 * The warnings no officer has confirmed yet: a confirmation (`warnings_confirmed`, same path and words) counts
 * until a later edit touches that path, since the words carry the value.
 */
export function unconfirmedWarnings(warnings: TReportWarning[], trail: TTrailEntry[]): TReportWarning[] {
  const confirmed = new Set<string>();
  for (const entry of trail) {
    if (entry.action === "warnings_confirmed") {
      const listed = (entry.changes as { warnings?: TReportWarning[] } | null)?.warnings ?? [];
      for (const w of listed) confirmed.add(`${w.path}\n${w.message}`);
    } else if (entry.action === "fields_updated") {
      const changed = stringsIn(entry.changes);
      for (const key of [...confirmed])
        if (changed.some((c) => touches(c, key.split("\n")[0]!))) confirmed.delete(key);
    }
  }
  return warnings.filter((w) => !confirmed.has(`${w.path}\n${w.message}`));
}

/** The refusal when warnings are left unconfirmed, naming each. */
export function warningsRefusal(warnings: TReportWarning[]): string {
  const n = warnings.length;
  return `${n} warning${n === 1 ? "" : "s"} to confirm: write a note saying why the report is right as it is (${warnings
    .map((w) => `${w.path}: ${w.message}`)
    .join("; ")})`;
}
