import type { TContent, TContentNode } from "@/lib/reports/content";
import {
  elementsOf,
  type TComplexType,
  type TElementDecl,
  type TGoamlSchema,
  type TParticle,
} from "@/lib/reports/goaml/schema";

// Report content against a goAML schema: the XML in the schema's own element order, the paths a valid file still
// lacks, and the declaration behind any content path. Content keys are goAML element names, except that the
// repeated <transaction> elements live in one `transactions` list.

type TObj = { [key: string]: TContentNode | undefined };

const CONTENT_KEYS: Record<string, string> = { transaction: "transactions" };
export const contentKey = (element: string): string => CONTENT_KEYS[element] ?? element;

const isObj = (v: unknown): v is TObj => v !== null && typeof v === "object" && !Array.isArray(v);

/** The single repeated child of a wrapper element (<phones><phone/>…</phones>), if the type is one. */
export function wrappedItem(decl: TElementDecl): TElementDecl | undefined {
  const children = elementsOf(decl.complex);
  return decl.complex && children.length === 1 ? children[0] : undefined;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** A value that says nothing: null, or text of only spaces. Required means non-empty. */
export const isBlank = (value: TContentNode | undefined): boolean =>
  value === null || (typeof value === "string" && value.trim() === "");

/** How many items an element may hold in content: a wrapper's items, a repeated element's occurrences. */
export function itemBounds(decl: TElementDecl): { min: number; max: number } | null {
  const item = wrappedItem(decl);
  const sequence = decl.complex?.particle;
  if (item && sequence && (item.max > 1 || sequence.max > 1))
    return { min: item.min * sequence.min, max: item.max * sequence.max };
  if (decl.max > 1) return { min: decl.min, max: decl.max };
  return null;
}

function leafText(value: TContentNode): string {
  if (typeof value === "boolean") return value ? "true" : "false";
  return escapeXml(String(value));
}

function renderElement(decl: TElementDecl, value: TContentNode | undefined, indent: string): string {
  // An empty element says nothing the FIU can use: never written (a required one is reported missing instead).
  if (value === undefined || isBlank(value)) return "";
  if (Array.isArray(value)) {
    const item = wrappedItem(decl);
    if (item) {
      const inner = value.map((v) => renderElement(item, v, `${indent}  `)).join("");
      return inner ? `${indent}<${decl.name}>\n${inner}${indent}</${decl.name}>\n` : "";
    }
    return value.map((v) => renderElement(decl, v, indent)).join("");
  }
  if (isObj(value)) {
    if (!decl.complex) return "";
    return `${indent}<${decl.name}>\n${renderType(value, decl.complex, `${indent}  `)}${indent}</${decl.name}>\n`;
  }
  return `${indent}<${decl.name}>${leafText(value)}</${decl.name}>\n`;
}

function renderType(node: TObj, type: TComplexType, indent: string): string {
  // Each content key once, at its first place in the schema (an element may be declared in two branches).
  return elementsOf(type)
    .map((decl) => renderElement(decl, node[contentKey(decl.name)], indent))
    .join("");
}

/** goAML XML of the content, elements in the schema's order; null (missing) values and unknown keys are left out. */
export function writeGoamlXml(content: TContent, schema: TGoamlSchema): string {
  const body = schema.report.complex ? renderType(content, schema.report.complex, "  ") : "";
  return `<?xml version="1.0" encoding="UTF-8"?>\n<report>\n${body}</report>\n`;
}

// ---------------------------------------------------------------- completeness

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

/** Whether the content took (part of) a particle: any of its elements is there. */
export function present(p: TParticle, node: TObj): boolean {
  if (p.kind === "element") {
    return node[contentKey(p.name)] !== undefined;
  }
  return p.items.some((i) => present(i, node));
}

function firstElement(p: TParticle): TElementDecl | undefined {
  if (p.kind === "element") return p;
  for (const item of p.items) {
    const found = firstElement(item);
    if (found) return found;
  }
  return undefined;
}

function missingIn(node: TObj, type: TComplexType, path: string, out: string[]): void {
  walkParticle(type.particle, true, new Set(), node, path, out);
}

/** Gaps under one particle; `done` holds the content keys already accounted for (each key is checked once). */
function walkParticle(
  p: TParticle,
  required: boolean,
  done: Set<string>,
  node: TObj,
  path: string,
  out: string[],
): void {
  if (p.kind === "element") {
    const key = contentKey(p.name);
    if (done.has(key)) return;
    done.add(key);
    missingAt(p, node[key], join(path, key), required && p.min >= 1, out);
    return;
  }
  const req = required && p.min >= 1;
  if (p.kind === "sequence") {
    p.items.forEach((i) => walkParticle(i, req, done, node, path, out));
    return;
  }
  // A choice is satisfied by the branch the content took; when several are present (an element declared in two
  // branches), the one leaving the fewest gaps is the one the writer's output will match.
  const candidates = p.items.filter((i) => present(i, node));
  if (candidates.length === 0) {
    const first = p.items[0] && firstElement(p.items[0]);
    if (req && first) out.push(join(path, contentKey(first.name)));
    return;
  }
  let best: { gaps: string[]; done: Set<string> } | null = null;
  for (const candidate of candidates) {
    const gaps: string[] = [];
    const seen = new Set(done);
    walkParticle(candidate, req, seen, node, path, gaps);
    if (!best || gaps.length < best.gaps.length) best = { gaps, done: seen };
  }
  out.push(...best!.gaps);
  for (const key of best!.done) done.add(key);
}

function missingAt(
  decl: TElementDecl,
  value: TContentNode | undefined,
  path: string,
  required: boolean,
  out: string[],
): void {
  if (value === null) {
    out.push(path);
    return;
  }
  if (value === undefined || (required && isBlank(value))) {
    if (required) out.push(path);
    return;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) {
      if (required) out.push(path);
      return;
    }
    const item = wrappedItem(decl) ?? decl;
    value.forEach((v, i) => missingAt(item, v, `${path}[${i}]`, true, out));
    // Fewer items than the schema's minimum: the next one is what is missing.
    const bounds = itemBounds(decl);
    if (bounds && value.length < bounds.min) out.push(`${path}[${value.length}]`);
    return;
  }
  if (isObj(value) && decl.complex) missingIn(value, decl.complex, path, out);
}

/** Content paths a valid file still needs, in schema order: null values and required elements that are absent. */
export function missingPaths(content: TContent, schema: TGoamlSchema): string[] {
  const out: string[] = [];
  if (schema.report.complex) missingIn(content, schema.report.complex, "", out);
  return [...new Set(out)];
}

// ---------------------------------------------------------------- declarations by path

/** The declaration of the element a content path names (`transactions[0].t_from.from_person.ssn`). */
export function declAt(schema: TGoamlSchema, path: string): TElementDecl | undefined {
  let decl: TElementDecl | undefined = schema.report;
  for (const part of path.split(".")) {
    const name = part.replace(/\[\d+\]/g, "");
    const indexed = part.includes("[");
    if (!decl?.complex) return undefined;
    const element = name === "transactions" ? "transaction" : name;
    const child: TElementDecl | undefined = elementsOf(decl.complex).find((e) => e.name === element);
    if (!child) return undefined;
    decl = indexed ? (wrappedItem(child) ?? child) : child;
  }
  return decl;
}
