import type { z } from "zod";

// Messages in the contract's wording ("Expected number to be greater or equal to 0", "Required", ...).
type TIssue = z.core.$ZodRawIssue;

function typeName(expected: string): string {
  return expected === "int" ? "integer" : expected;
}

export function issueMessage(issue: TIssue): string | undefined {
  // A missing field reads "Required" whatever its type (docs/decisions.md §9).
  if (issue.input === undefined && issue.code !== "custom" && issue.code !== "invalid_union")
    return "Required";
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return "Required";
      return `Expected ${typeName(String(issue.expected))}`;
    case "too_small": {
      const min = String(issue.minimum);
      if (issue.origin === "number" || issue.origin === "int" || issue.origin === "bigint")
        return issue.inclusive
          ? `Expected number to be greater or equal to ${min}`
          : `Expected number to be greater than ${min}`;
      if (issue.origin === "string")
        return Number(issue.minimum) === 1 && issue.inclusive
          ? "Expected non-empty string"
          : `Expected string length greater or equal to ${min}`;
      if (issue.origin === "array") return `Expected array length greater or equal to ${min}`;
      return undefined;
    }
    case "too_big": {
      const max = String(issue.maximum);
      if (issue.origin === "number" || issue.origin === "int" || issue.origin === "bigint")
        return issue.inclusive
          ? `Expected number to be less or equal to ${max}`
          : `Expected number to be less than ${max}`;
      if (issue.origin === "string") return `Expected string length less or equal to ${max}`;
      if (issue.origin === "array") return `Expected array length less or equal to ${max}`;
      return undefined;
    }
    case "invalid_value":
      return `Expected one of: ${issue.values.map((v) => String(v)).join(", ")}`;
    case "invalid_union":
      return "Expected union value";
    case "invalid_format":
      if (issue.format === "regex") return undefined;
      return `Expected string to match '${issue.format}' format`;
    default:
      return undefined;
  }
}

/** JSON-pointer-like path: `/`, `/amount`, `/recipients/0/bank`. */
export function pointer(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "/";
  return "/" + path.map((p) => String(p).replace(/~/g, "~0").replace(/\//g, "~1")).join("/");
}

export function formatIssues(error: z.ZodError): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const issue of error.issues) {
    const line = `${pointer(issue.path)}: ${issue.message}`;
    if (!seen.has(line)) {
      seen.add(line);
      out.push(line);
    }
  }
  return out;
}
