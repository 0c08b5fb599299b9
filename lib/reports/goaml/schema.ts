import { createHash } from "node:crypto";
import { localName, parseXml, type TXmlNode } from "@/lib/reports/goaml/xml-tree";

// What the service needs from an FIU's goAML XSD, read once per schema text: the content model of every type
// (element order, occurrence, choices), and every simple type's base, enumerations (with their labels) and facets.
// The writer, the completeness check and the draft editor all read this; nothing about goAML's shape is hard-coded.

export type TEnumValue = { value: string; label?: string };
export type TFacets = {
  length?: number;
  minLength?: number;
  maxLength?: number;
  patterns?: string[];
  totalDigits?: number;
  fractionDigits?: number;
  minInclusive?: string;
  maxInclusive?: string;
  minExclusive?: string;
  maxExclusive?: string;
};
export type TSimpleType = {
  /** The named type, when the element refers to one (country_type, sql_date, ...). */
  name?: string;
  /** The XSD built-in it derives from, without prefix: string, int, decimal, dateTime, boolean, ... */
  base: string;
  enumerations: TEnumValue[];
  facets: TFacets;
};
export type TElementDecl = {
  kind: "element";
  name: string;
  min: number;
  max: number;
  /** Name of the complex type, or the anonymous one inline. */
  complex?: TComplexType;
  simple?: TSimpleType;
};
export type TGroup = { kind: "sequence" | "choice"; min: number; max: number; items: TParticle[] };
export type TParticle = TElementDecl | TGroup;
export type TComplexType = { name?: string; particle: TGroup };

export type TGoamlSchema = {
  sha256: string;
  version: string | null;
  report: TElementDecl;
  complexTypes: Map<string, TComplexType>;
  simpleTypes: Map<string, TSimpleType>;
};

const occurs = (value: string | undefined, fallback: number): number =>
  value === undefined ? fallback : value === "unbounded" ? Infinity : Number(value);

const kids = (node: TXmlNode, name?: string): TXmlNode[] =>
  node.children.filter((c) => (name ? localName(c) === name : true));

function documentation(node: TXmlNode): string | undefined {
  const doc = kids(node, "annotation").flatMap((a) => kids(a, "documentation"))[0];
  const text = doc?.text.trim() || node.comments[0]?.trim();
  return text || undefined;
}

/** Reads a goAML XSD. Throws when the text is not XML or declares no `report` element. */
export function readGoamlSchema(xsd: string): TGoamlSchema {
  const root = parseXml(xsd);
  if (localName(root) !== "schema") throw new Error("Not an XML Schema: the root element is not xs:schema");
  const namedSimple = new Map<string, TXmlNode>();
  const namedComplex = new Map<string, TXmlNode>();
  for (const child of root.children) {
    const name = child.attrs.name;
    if (!name) continue;
    if (localName(child) === "simpleType") namedSimple.set(name, child);
    if (localName(child) === "complexType") namedComplex.set(name, child);
  }
  const simpleTypes = new Map<string, TSimpleType>();
  const complexTypes = new Map<string, TComplexType>();

  const builtin = (ref: string) => ref.replace(/^\w+:/, "");

  function simpleFrom(node: TXmlNode, name?: string, seen: string[] = []): TSimpleType {
    const restriction = kids(node, "restriction")[0];
    const list = kids(node, "list")[0] ?? kids(node, "union")[0];
    if (!restriction) return { name, base: list ? "string" : "string", enumerations: [], facets: {} };
    const baseRef = restriction.attrs.base ?? "xs:string";
    const parent =
      namedSimple.has(baseRef) && !seen.includes(baseRef)
        ? simpleNamed(baseRef, [...seen, baseRef])
        : undefined;
    const facets: TFacets = { ...(parent?.facets ?? {}) };
    const enumerations: TEnumValue[] = [];
    for (const f of restriction.children) {
      const value = f.attrs.value ?? "";
      switch (localName(f)) {
        case "enumeration":
          enumerations.push({ value, label: documentation(f) });
          break;
        case "pattern":
          facets.patterns = [...(facets.patterns ?? []), value];
          break;
        case "length":
        case "minLength":
        case "maxLength":
        case "totalDigits":
        case "fractionDigits":
          facets[localName(f) as "length"] = Number(value);
          break;
        case "minInclusive":
        case "maxInclusive":
        case "minExclusive":
        case "maxExclusive":
          facets[localName(f) as "minInclusive"] = value;
          break;
      }
    }
    return {
      name,
      base: parent?.base ?? builtin(baseRef),
      enumerations: enumerations.length ? enumerations : (parent?.enumerations ?? []),
      facets,
    };
  }

  function simpleNamed(ref: string, seen: string[] = []): TSimpleType {
    const cached = simpleTypes.get(ref);
    if (cached) return cached;
    const node = namedSimple.get(ref);
    const type = node ? simpleFrom(node, ref, seen) : { base: builtin(ref), enumerations: [], facets: {} };
    if (node) simpleTypes.set(ref, type);
    return type;
  }

  function group(node: TXmlNode): TGroup {
    const items: TParticle[] = [];
    for (const child of node.children) {
      const kind = localName(child);
      if (kind === "element") items.push(element(child));
      else if (kind === "sequence" || kind === "choice") items.push(group(child));
    }
    return {
      kind: localName(node) === "choice" ? "choice" : "sequence",
      min: occurs(node.attrs.minOccurs, 1),
      max: occurs(node.attrs.maxOccurs, 1),
      items,
    };
  }

  function complexFrom(node: TXmlNode, name?: string): TComplexType {
    const type: TComplexType = { name, particle: { kind: "sequence", min: 1, max: 1, items: [] } };
    if (name) complexTypes.set(name, type);
    const content = kids(node, "complexContent")[0];
    const extension = content && (kids(content, "extension")[0] ?? kids(content, "restriction")[0]);
    if (extension) {
      const base = extension.attrs.base ? complexNamed(extension.attrs.base) : undefined;
      const own = kids(extension).find((c) => ["sequence", "choice"].includes(localName(c)));
      const isExtension = localName(extension) === "extension";
      type.particle.items = [...(base && isExtension ? [base.particle] : []), ...(own ? [group(own)] : [])];
      return type;
    }
    const own = kids(node).find((c) => ["sequence", "choice", "all"].includes(localName(c)));
    if (own) type.particle = group(own);
    return type;
  }

  function complexNamed(ref: string): TComplexType | undefined {
    const cached = complexTypes.get(ref);
    if (cached) return cached;
    const node = namedComplex.get(ref);
    return node ? complexFrom(node, ref) : undefined;
  }

  function element(node: TXmlNode): TElementDecl {
    const decl: TElementDecl = {
      kind: "element",
      name: node.attrs.name ?? node.attrs.ref ?? "",
      min: occurs(node.attrs.minOccurs, 1),
      max: occurs(node.attrs.maxOccurs, 1),
    };
    const ref = node.attrs.type;
    const inlineComplex = kids(node, "complexType")[0];
    const inlineSimple = kids(node, "simpleType")[0];
    if (inlineComplex) decl.complex = complexFrom(inlineComplex);
    else if (inlineSimple) decl.simple = simpleFrom(inlineSimple);
    else if (ref && namedComplex.has(ref)) decl.complex = complexNamed(ref);
    else if (ref && namedSimple.has(ref)) decl.simple = simpleNamed(ref);
    else decl.simple = { base: ref ? builtin(ref) : "string", enumerations: [], facets: {} };
    return decl;
  }

  const reportNode = root.children.find((c) => localName(c) === "element" && c.attrs.name === "report");
  if (!reportNode) throw new Error("The schema declares no <report> element");
  for (const name of namedSimple.keys()) simpleNamed(name);
  for (const name of namedComplex.keys()) complexNamed(name);
  return {
    sha256: createHash("sha256").update(xsd).digest("hex"),
    version: root.attrs["goaml:schemaVersion"] ?? root.attrs.version ?? null,
    report: element(reportNode),
    complexTypes,
    simpleTypes,
  };
}

/** The element declarations of a complex type, in document order, each once (choices flattened). */
export function elementsOf(type: TComplexType | undefined): TElementDecl[] {
  const out: TElementDecl[] = [];
  const seen = new Set<string>();
  const walk = (p: TParticle) => {
    if (p.kind === "element") {
      if (!seen.has(p.name)) out.push(p);
      seen.add(p.name);
    } else p.items.forEach(walk);
  };
  if (type) walk(type.particle);
  return out;
}

/** The child element `name` of a complex type. */
export function childElement(type: TComplexType | undefined, name: string): TElementDecl | undefined {
  return elementsOf(type).find((e) => e.name === name);
}

/** Element names of a content model, in order: what a test or a reader compares across schema variants. */
export function elementOrder(type: TComplexType | undefined): string[] {
  return elementsOf(type).map((e) => e.name);
}

/** The named type's enumeration, or [] (lookup lists for the profile and the editor). */
export function lookup(schema: TGoamlSchema, typeName: string): TEnumValue[] {
  return schema.simpleTypes.get(typeName)?.enumerations ?? [];
}

/** Elements a type requires outright: minOccurs ≥ 1 along a path of required sequences (not inside a choice). */
export function requiredElements(type: TComplexType | undefined): string[] {
  const out: string[] = [];
  const walk = (p: TParticle) => {
    if (p.kind === "element") {
      if (p.min >= 1) out.push(p.name);
    } else if (p.kind === "sequence" && p.min >= 1) p.items.forEach(walk);
  };
  if (type) walk(type.particle);
  return out;
}
