import { readFileSync } from "node:fs";
import path from "node:path";
import { boundedCache } from "@/lib/cache/bounded-cache";
import { incompletePaths, type TContent, type TContentNode } from "@/lib/reports/content";
import { checkStored } from "@/lib/reports/goaml/check-value";
import {
  elementsOf,
  readGoamlSchema,
  type TComplexType,
  type TGoamlSchema,
} from "@/lib/reports/goaml/schema";
import { contentKey, declAt, missingPaths, wrappedItem, writeGoamlXml } from "@/lib/reports/goaml/walk";
import type { TReportProfile } from "@/lib/reports/schemas";

// The client's active goAML schema (the FIU's uploaded XSD, else the generic 5.0.1 one), the report's XML written
// from it, and the one verdict the dashboard shows: what is missing or invalid, or libxml2's acceptance.

export const GOAML_XSD_PATH = path.join(process.cwd(), "lib", "reports", "goaml", "goAMLSchema-5.0.1.xsd");
export const GENERIC_SCHEMA_NAME = "the generic goAML 5.0.1 schema";

export type TActiveSchema = { name: string; generic: boolean; xsd: string; schema: TGoamlSchema };

const parsed = boundedCache<TGoamlSchema>(16);

function readCached(xsd: string): TGoamlSchema {
  const hit = parsed.get(xsd);
  if (hit) return hit;
  const schema = readGoamlSchema(xsd);
  parsed.set(xsd, schema);
  return schema;
}

/** The schema a client's reports are written and validated against. */
export function activeSchema(profile: TReportProfile): TActiveSchema {
  if (profile.goamlSchemaXsd)
    return {
      name: profile.goamlSchemaName ?? "the FIU's goAML schema",
      generic: false,
      xsd: profile.goamlSchemaXsd,
      schema: readCached(profile.goamlSchemaXsd),
    };
  const file = profile.goamlSchemaPath ? path.resolve(profile.goamlSchemaPath) : GOAML_XSD_PATH;
  const xsd = readFileSync(file, "utf8");
  return {
    name: profile.goamlSchemaPath ? (profile.goamlSchemaName ?? path.basename(file)) : GENERIC_SCHEMA_NAME,
    generic: !profile.goamlSchemaPath,
    xsd,
    schema: readCached(xsd),
  };
}

export type TValidation = { valid: boolean; errors: string[] };

/**
 * Validates XML against an XSD in-process with libxml2 compiled to WebAssembly (xmllint-wasm, run in a
 * worker thread): no native binary is needed, so air-gapped installs validate exactly like CI.
 */
export async function validateXml(xml: string, xsd: string): Promise<TValidation> {
  const { validateXML } = await import("xmllint-wasm");
  const result = await validateXML({
    xml: [{ fileName: "report.xml", contents: xml }],
    schema: [{ fileName: "goaml.xsd", contents: xsd }],
    initialMemoryPages: 512,
  });
  return {
    valid: result.valid,
    errors: result.errors.map((e) => e.message.trim()).filter((m) => m && !/fails to validate/.test(m)),
  };
}

export type TProblem = { path: string; kind: "missing" | "invalid"; message?: string };

/** Stored values the schema would refuse (a hand-typed code, a date in the wrong form), by path. */
export function invalidValues(content: TContent, schema: TGoamlSchema): TProblem[] {
  const out: TProblem[] = [];
  const walk = (node: TContentNode | undefined, p: string) => {
    if (node === null || node === undefined) return;
    if (Array.isArray(node)) node.forEach((v, i) => walk(v, `${p}[${i}]`));
    else if (typeof node === "object")
      for (const [k, v] of Object.entries(node)) walk(v, p ? `${p}.${k}` : k);
    else {
      const decl = declAt(schema, p);
      const message = decl?.simple ? checkStored(decl, node) : null;
      if (message) out.push({ path: p, kind: "invalid", message });
    }
  };
  walk(content, "");
  return out;
}

/** What a valid file still lacks: required elements the schema wants and values nobody could derive (null). */
function missingFor(content: TContent, schema: TGoamlSchema): string[] {
  return [...new Set([...missingPaths(content, schema), ...incompletePaths(content)])];
}

/**
 * The one list of what stands between a report and a valid file, by content path: every missing value (required
 * elements the schema wants, values nobody could derive), then every stored value the schema refuses (a lookup
 * code the active schema does not list, a date in the wrong form). The API's `incomplete`, the page's verdict and
 * the download's refusal are all this list.
 */
export function reportProblems(content: TContent, schema: TGoamlSchema): TProblem[] {
  const missing = missingFor(content, schema);
  const seen = new Set(missing);
  return [
    ...missing.map((path): TProblem => ({ path, kind: "missing" })),
    ...invalidValues(content, schema).filter((p) => !seen.has(p.path)),
  ];
}

/** The content paths a reviewer must still supply or correct: the paths of `reportProblems`, once each. */
export function incompleteFor(content: TContent, schema: TGoamlSchema): string[] {
  return [...new Set(reportProblems(content, schema).map((p) => p.path))];
}

/** The problem as one line of an error's details: `path: what is wrong`. */
export function problemDetail(p: TProblem): string {
  return `${p.path}: ${p.kind === "missing" ? "required by goAML" : (p.message ?? "refused by the schema")}`;
}

export type TVerdict = {
  schemaName: string;
  valid: boolean;
  /** Missing and invalid fields, each naming its content path. */
  problems: TProblem[];
  /** libxml2's messages when the fields look right but the file still does not validate. */
  errors: string[];
  xml: string;
};

/** The one verdict on a report's goAML file: libxml2 against the active schema decides, never a guess. */
export async function checkReport(content: TContent, active: TActiveSchema): Promise<TVerdict> {
  const problems = reportProblems(content, active.schema);
  const xml = writeGoamlXml(content, active.schema);
  const result = await validateXml(xml, active.xsd);
  return {
    schemaName: active.name,
    valid: result.valid && problems.length === 0,
    problems,
    errors: result.valid ? [] : result.errors,
    xml,
  };
}

export type TGoamlExport =
  | { ok: true; xml: string }
  | { ok: false; reason: "incomplete"; missing: string[]; problems: TProblem[] }
  | { ok: false; reason: "invalid"; errors: string[]; xml: string };

/** The XML of a report, offered only when nothing is missing or refused (`reportProblems`) and it validates against the client's goAML schema. */
export async function exportGoamlXml(content: TContent, profile: TReportProfile): Promise<TGoamlExport> {
  const active = activeSchema(profile);
  const problems = reportProblems(content, active.schema);
  if (problems.length > 0)
    return { ok: false, reason: "incomplete", missing: [...new Set(problems.map((p) => p.path))], problems };
  const xml = writeGoamlXml(content, active.schema);
  const result = await validateXml(xml, active.xsd);
  return result.valid ? { ok: true, xml } : { ok: false, reason: "invalid", errors: result.errors, xml };
}

function orderNode(node: TContentNode | undefined, type: TComplexType | undefined): TContentNode | undefined {
  if (node === null || node === undefined || typeof node !== "object") return node;
  if (Array.isArray(node)) return node.map((item) => orderNode(item, type) ?? null);
  const out: Record<string, TContentNode | undefined> = {};
  for (const decl of elementsOf(type)) {
    const key = contentKey(decl.name);
    if (!(key in node)) continue;
    const child = node[key];
    const item = Array.isArray(child) ? (wrappedItem(decl) ?? decl) : decl;
    out[key] = orderNode(child, item.complex);
  }
  for (const [key, value] of Object.entries(node)) if (!(key in out)) out[key] = value;
  return out;
}

/** The content with keys in the schema's element order (jsonb keeps its own order), for display. */
export function orderContent(content: TContent, schema: TGoamlSchema): TContent {
  return orderNode(content, schema.report.complex) as TContent;
}
