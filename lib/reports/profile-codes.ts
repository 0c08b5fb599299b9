import { lookup, type TGoamlSchema } from "@/lib/reports/goaml/schema";
import { indicatorCodes } from "@/lib/reports/indicators";
import type { TReportProfile } from "@/lib/reports/schemas";

// The goAML lookup codes a client's reporting profile holds, each with the schema list it must come from. An FIU's
// new schema can drop codes the profile still holds ("stale" codes): they are listed, mapped by an admin, and never
// copied into a new draft.

/** The goAML simple type of the indicator list (the rule → indicator mapping's codes). */
export const INDICATOR_LIST = "report_indicator_type";

/** A place of the profile that holds one lookup code. */
export type TProfileCode = {
  /** Path in the profile, e.g. ["codes", "transmode", "card"]. */
  key: string[];
  label: string;
  /** The goAML simple type whose enumeration lists the allowed codes (contact_type, conduction_type, ...). */
  list: string;
  value: string;
};

const SINGLE: [string[], string, string][] = [
  [["codes", "submissionCode"], "Submission code", "submission_type"],
  [["codes", "contactType"], "Contact type (phones, addresses)", "contact_type"],
  [["codes", "communicationType"], "Phone communication type", "communication_type"],
  [["codes", "fundsCode"], "Funds code", "funds_type"],
  [["location", "addressType"], "Reporting location address type", "contact_type"],
  [["location", "countryCode"], "Reporting location country", "country_type"],
  [["currencyCodeLocal"], "Local currency", "currency_type"],
];

/** The value at `key` in a profile (undefined when absent). */
export function codeAt(profile: unknown, key: string[]): unknown {
  let node = profile;
  for (const k of key)
    node = node && typeof node === "object" ? (node as Record<string, unknown>)[k] : undefined;
  return node;
}

/** Every lookup code the profile sets (empty values are not codes). */
export function profileCodes(profile: TReportProfile): TProfileCode[] {
  const out: TProfileCode[] = [];
  const add = (key: string[], label: string, list: string) => {
    const value = codeAt(profile, key);
    if (typeof value === "string" && value !== "") out.push({ key, label, list, value });
  };
  for (const [key, label, list] of SINGLE) add(key, label, list);
  for (const method of Object.keys(profile.codes?.transmode ?? {}))
    add(
      ["codes", "transmode", method],
      `Transmission mode: ${method === "default" ? "any other method" : method}`,
      "conduction_type",
    );
  for (const type of Object.keys(profile.codes?.reportCode ?? {}))
    add(["codes", "reportCode", type], `Report code for ${type}`, "report_type");
  return out;
}

/** The codes of a lookup list in a schema; an empty set when the schema does not enumerate that list. */
export function listCodes(schema: TGoamlSchema, list: string): Set<string> {
  const values = list === INDICATOR_LIST ? indicatorCodes(schema) : lookup(schema, list);
  return new Set(values.map((v) => v.value));
}

/** Whether `code` is stale: the schema enumerates that list and `code` is not one of its values. */
export function isStale(schema: TGoamlSchema, list: string, code: string): boolean {
  const known = listCodes(schema, list);
  return known.size > 0 && !known.has(code);
}

/** A copy of `profile` with the value at `key` replaced (or removed with `undefined`). */
export function withProfileCode(
  profile: TReportProfile,
  key: string[],
  value: string | undefined,
): TReportProfile {
  const set = (node: unknown, rest: string[]): unknown => {
    const obj = node && typeof node === "object" ? { ...(node as Record<string, unknown>) } : {};
    const [head, ...tail] = rest;
    if (tail.length === 0) {
      if (value === undefined) delete obj[head!];
      else obj[head!] = value;
    } else obj[head!] = set(obj[head!], tail);
    return obj;
  };
  return set(profile, key) as TReportProfile;
}

/**
 * The profile as a new draft may use it: stale codes are left out (the draft's value is then derived or missing,
 * and listed), so a draft never inherits a code its schema refuses; stale indicator codes leave the mapping too.
 */
export function withoutStaleCodes(profile: TReportProfile, schema: TGoamlSchema): TReportProfile {
  let out = profile;
  for (const code of profileCodes(profile))
    if (isStale(schema, code.list, code.value)) out = withProfileCode(out, code.key, undefined);
  if (profile.indicatorMapping) {
    const known = listCodes(schema, INDICATOR_LIST);
    if (known.size > 0)
      out = {
        ...out,
        indicatorMapping: Object.fromEntries(
          Object.entries(profile.indicatorMapping).map(([rule, codes]) => [
            rule,
            codes.filter((c) => known.has(c)),
          ]),
        ),
      };
  }
  return out;
}
