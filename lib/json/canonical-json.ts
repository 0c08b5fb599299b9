/**
 * JSON with object keys sorted recursively by UTF-16 code units (RFC 8785's order for JSON data), so the same
 * value always gives the same text: what the Inngest SDK verifies signatures over, what request bodies and
 * report audit entries are hashed over, and how stored jsonb (which does not keep key order) is compared.
 * Object properties that are undefined are left out; undefined at the top or in an array is `null`.
 * It reads values as JSON data: `toJSON` is not called (a Date is `{}`), so pass dates as text or numbers.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) out += (i ? "," : "") + canonicalJson(value[i]);
    return `${out}]`;
  }
  if (value !== null && typeof value === "object") {
    const object = value as Record<string, unknown>;
    // sort() without a comparator orders by UTF-16 code units, as `<` does
    const keys = Object.keys(object).sort();
    let out = "";
    for (const key of keys) {
      const v = object[key];
      if (v !== undefined) out += `${out ? "," : ""}${JSON.stringify(key)}:${canonicalJson(v)}`;
    }
    return `{${out}}`;
  }
  return JSON.stringify(value) ?? "null";
}
