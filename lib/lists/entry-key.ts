// What an entry of each list kind matches on: the stored `key` of an entry, and the same function
// applied to the value a rule looks up (so both sides are normalised identically).
import { formatIpRange, parseIp, parseIpRange } from "@/lib/lists/ip";
import type { TListKind } from "@/lib/lists/schemas";

// ISO 3166-1 alpha-2, plus XK (Kosovo), which payment networks use.
const COUNTRIES = new Set(
  (
    "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT " +
    "BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER " +
    "ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID " +
    "IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV " +
    "LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR " +
    "NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL " +
    "SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC " +
    "VE VG VI VN VU WF WS YE YT ZA ZM ZW XK"
  ).split(" "),
);

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** The match key of a looked-up value; null when it cannot match any entry of this kind. */
export function lookupKey(kind: TListKind, value: string): string | null {
  const trimmed = value.trim();
  if (trimmed === "") return null;
  switch (kind) {
    case "email":
    case "string":
      return trimmed.toLowerCase();
    case "name":
      return trimmed.toLowerCase().replace(/\s+/g, " ");
    case "country":
      return trimmed.toUpperCase();
    case "ip": {
      const ip = parseIp(trimmed);
      return ip
        ? formatIpRange({ family: ip.family, network: ip.value, prefix: ip.family === 4 ? 32 : 128 })
        : null;
    }
    default:
      return trimmed;
  }
}

/** The stored key of an entry, or the reason the value is not valid for the list's kind. */
export function entryKey(kind: TListKind, value: string): { key: string } | { error: string } {
  const trimmed = value.trim();
  if (trimmed === "") return { error: "value is empty" };
  if (kind === "email" && !EMAIL.test(trimmed)) return { error: `'${trimmed}' is not an email address` };
  if (kind === "country" && !COUNTRIES.has(trimmed.toUpperCase()))
    return { error: `'${trimmed}' is not an ISO 3166-1 alpha-2 country code` };
  if (kind === "ip") {
    const range = parseIpRange(trimmed);
    return "error" in range ? range : { key: formatIpRange(range) };
  }
  return { key: lookupKey(kind, trimmed)! };
}

/** The value as stored and shown: country codes in upper case (as ISO 3166 writes them), others as typed. */
export function entryValue(kind: TListKind, value: string): string {
  const trimmed = value.trim();
  return kind === "country" ? trimmed.toUpperCase() : trimmed;
}
