import { getAtPath, parsePath, type TContent, type TContentNode } from "@/lib/reports/content";
import {
  elementsOf,
  type TComplexType,
  type TElementDecl,
  type TGoamlSchema,
  type TParticle,
} from "@/lib/reports/goaml/schema";
import { contentKey, declAt, itemBounds, missingPaths, present, wrappedItem } from "@/lib/reports/goaml/walk";

// Adding and removing whole elements of a report by its schema: what may be added under a part of the report
// (absent elements a choice the content took does not exclude, repeated ones below their maximum), the empty
// element to add (its required parts, with what the service knows filled in), and removals that leave nothing
// the file needs missing (never a required element, never a list below its minimum).

type TObj = { [key: string]: TContentNode | undefined };
const isObj = (v: unknown): v is TObj => v !== null && typeof v === "object" && !Array.isArray(v);

function count(value: TContentNode | undefined): number {
  if (value === undefined) return 0;
  return Array.isArray(value) ? value.length : 1;
}

/** The declaration of one item of `decl` in content: a wrapper's item, or the element itself. */
export function itemDecl(decl: TElementDecl): TElementDecl {
  const bounds = itemBounds(decl);
  if (!bounds) return decl;
  const item = wrappedItem(decl);
  return item && decl.max <= 1 ? item : decl;
}

/** Elements that may be added under `node` (of `type`), in schema order. */
export function addableElements(node: TObj, type: TComplexType | undefined): TElementDecl[] {
  const out: TElementDecl[] = [];
  const seen = new Set<string>();
  const walk = (p: TParticle, excluded: boolean) => {
    if (p.kind === "element") {
      if (seen.has(p.name)) return;
      seen.add(p.name);
      const max = itemBounds(p)?.max ?? 1;
      if (!excluded && count(node[contentKey(p.name)]) < max) out.push(p);
      return;
    }
    if (p.kind === "choice" && p.max <= 1) {
      // Once the content took a branch, the other branches are not open (remove it first to switch).
      const taken = p.items.find((i) => present(i, node));
      p.items.forEach((i) => walk(i, excluded || (taken !== undefined && i !== taken)));
      return;
    }
    p.items.forEach((i) => walk(i, excluded));
  };
  if (type) walk(type.particle, false);
  return out;
}

type TPrefill = TContentNode | undefined;

/** Elements a content model needs outright, a required choice taking the branch `prefill` fills (else the first). */
function requiredParts(p: TParticle, prefill: TObj | undefined, out: TElementDecl[]): void {
  if (p.kind === "element") {
    if (p.min >= 1) out.push(p);
    return;
  }
  if (p.min < 1) return;
  if (p.kind === "sequence") {
    p.items.forEach((i) => requiredParts(i, prefill, out));
    return;
  }
  const branch = (prefill && p.items.find((i) => present(i, prefill))) ?? p.items[0];
  if (branch) requiredParts(branch, prefill, out);
}

/**
 * A new element of `decl`: a simple one is `prefill` or null (to be filled); a complex one holds its required
 * parts (null leaves, nested required elements) and every part `prefill` knows that the type declares.
 */
export function emptyElement(decl: TElementDecl, prefill?: TPrefill, depth = 0): TContentNode {
  if (!decl.complex)
    return prefill === undefined || isObj(prefill) || Array.isArray(prefill) ? null : prefill;
  const known = isObj(prefill) ? prefill : undefined;
  const out: TObj = {};
  const needed: TElementDecl[] = [];
  requiredParts(decl.complex.particle, known, needed);
  for (const child of elementsOf(decl.complex)) {
    const key = contentKey(child.name);
    const given = known?.[key];
    const required = needed.includes(child);
    if (given === undefined && (!required || depth > 8)) continue;
    const bounds = itemBounds(child);
    if (bounds) {
      const item = itemDecl(child);
      const items = Array.isArray(given) ? given : given !== undefined ? [given] : [];
      const made = items.map((g) => emptyElement(item, g, depth + 1));
      while (made.length < Math.max(bounds.min, required ? 1 : 0))
        made.push(emptyElement(item, undefined, depth + 1));
      out[key] = made;
    } else out[key] = emptyElement(child, given, depth + 1);
  }
  return out;
}

export type TStructureResult = { ok: true; content: TContent; path: string } | { ok: false; message: string };

const parentDeclOf = (schema: TGoamlSchema, path: string) => (path ? declAt(schema, path) : schema.report);

/** Adds `element` under the part at `parentPath` (a new item when it repeats), prefilled with `prefill`. */
export function addElement(
  content: TContent,
  schema: TGoamlSchema,
  parentPath: string,
  element: string,
  prefill?: TPrefill,
): TStructureResult {
  const parentDecl = parentDeclOf(schema, parentPath);
  const parent = parentPath ? getAtPath(content, parentPath) : content;
  if (!parentDecl?.complex || !isObj(parent))
    return { ok: false, message: `${parentPath} is not a part of this report` };
  const decl = addableElements(parent, parentDecl.complex).find((d) => d.name === element);
  if (!decl)
    return { ok: false, message: `${element} cannot be added there: the schema does not allow another one` };
  const copy = structuredClone(content);
  const target = (parentPath ? getAtPath(copy, parentPath) : copy) as TObj;
  const key = contentKey(element);
  const at = parentPath ? `${parentPath}.${key}` : key;
  if (itemBounds(decl)) {
    const current = target[key];
    const list = Array.isArray(current) ? current : current === undefined ? [] : [current];
    list.push(emptyElement(itemDecl(decl), prefill));
    target[key] = list;
    return { ok: true, content: copy, path: `${at}[${list.length - 1}]` };
  }
  target[key] = emptyElement(decl, prefill);
  return { ok: true, content: copy, path: at };
}

/** `a.b.phones[1]` → `a.b`: the part that holds an element (or an item of it). */
export function holderOf(path: string): string {
  const element = path.replace(/(\[\d+\])+$/, "");
  const dot = element.lastIndexOf(".");
  return dot === -1 ? "" : element.slice(0, dot);
}

/**
 * Removes the element (or list item) at `path`, unless that leaves something the file needs missing at that place:
 * a required element, a required choice with no branch, a list below its minimum.
 */
export function removeElement(content: TContent, schema: TGoamlSchema, path: string): TStructureResult {
  const segments = parsePath(path);
  if (!segments || getAtPath(content, path) === undefined)
    return { ok: false, message: `${path} is not a part of this report` };
  const copy = structuredClone(content);
  const last = segments.at(-1)!;
  const holderPath =
    typeof last === "number"
      ? path.replace(/\[\d+\]$/, "")
      : path.slice(0, Math.max(path.lastIndexOf("."), 0));
  const holder = holderPath ? getAtPath(copy, holderPath) : copy;
  if (typeof last === "number" && Array.isArray(holder)) {
    holder.splice(last, 1);
    // An empty list is no list: the element goes (and, if the schema wants it, is reported missing below).
    if (holder.length === 0) {
      const owner = holderOf(path);
      const node = (owner ? getAtPath(copy, owner) : copy) as TObj;
      delete node[holderPath.slice(holderPath.lastIndexOf(".") + 1)];
    }
  } else if (typeof last === "string" && isObj(holder)) delete holder[last];
  else return { ok: false, message: `${path} is not a part of this report` };
  const place = holderOf(path);
  const before = new Set(missingPaths(content, schema));
  const lost = missingPaths(copy, schema).filter((p) => !before.has(p) && holderOf(p) === place);
  if (lost.length > 0)
    return { ok: false, message: `${path} is required by the schema and cannot be removed` };
  return { ok: true, content: copy, path };
}

/** Whether removing `path` would be accepted (the editor offers Remove only then). */
export function canRemove(content: TContent, schema: TGoamlSchema, path: string): boolean {
  return removeElement(content, schema, path).ok;
}
