// The declared fields of every rule subject, the one source of truth for the rule type checker
// (lib/rules/type-check.ts) and the editor's autocompletion. Request fields are derived from the
// zod request schemas, so a field added to a request is known to rules at once; what the schemas do
// not hold (the stored records' `status` and `createdAt`, `transaction.baseAmount`) is added here.
import type { z } from "zod";
import { ZEventFields } from "@/lib/events/schemas";
import { ZMerchantFields } from "@/lib/merchants/schemas";
import { ZPaymentInstrument } from "@/lib/payment-instruments/schemas";
import type { TAggregateOver, TRuleSubject } from "@/lib/rules/schemas";
import { ZTransactionFields } from "@/lib/transactions/schemas";
import { ZUser } from "@/lib/users/schemas";
import { LINK_FUNCTIONS, LINK_SUBJECTS } from "@/lib/links/link-signals";

/** A field's CEL type: JSON numbers are doubles; `map` is free-form (its keys are not checked). */
export type TFieldType =
  | { kind: "string" | "double" | "bool" | "dyn" | "map" }
  | { kind: "list"; element: TFieldType }
  | { kind: "object"; fields: Record<string, TFieldType> };

const DYN: TFieldType = { kind: "dyn" };
const STRING: TFieldType = { kind: "string" };
const DOUBLE: TFieldType = { kind: "double" };

type TZodDef = {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, unknown>;
  values?: unknown[];
  left?: z.ZodType;
  right?: z.ZodType;
};

function defOf(schema: z.ZodType): TZodDef {
  return (schema as unknown as { _zod: { def: TZodDef } })._zod.def;
}

function literalType(values: readonly unknown[]): TFieldType {
  const kinds = new Set(values.map((v) => typeof v));
  if (kinds.size !== 1) return DYN;
  const [kind] = kinds;
  return kind === "string"
    ? STRING
    : kind === "number"
      ? DOUBLE
      : kind === "boolean"
        ? { kind: "bool" }
        : DYN;
}

function merge(a: TFieldType, b: TFieldType): TFieldType {
  if (a.kind === "object" && b.kind === "object")
    return { kind: "object", fields: { ...a.fields, ...b.fields } };
  return a.kind === b.kind && a.kind !== "list" ? a : DYN;
}

/** The CEL type of the values a zod schema outputs (what the rules see after parsing). */
export function fieldTypeOf(schema: z.ZodType): TFieldType {
  const def = defOf(schema);
  switch (def.type) {
    case "string":
    case "enum":
      return def.type === "enum" ? literalType(Object.values(def.entries ?? {})) : STRING;
    case "number":
    case "int":
      return DOUBLE;
    case "boolean":
      return { kind: "bool" };
    case "literal":
      return literalType(def.values ?? []);
    case "nullable":
      // null is a value the request may send: `== null` must type-check
      return DYN;
    case "optional":
    case "default":
    case "prefault":
    case "readonly":
    case "catch":
    case "nonoptional":
      return fieldTypeOf(def.innerType!);
    case "pipe":
      // a transform's output has no schema: its input's type is the closest we know
      return defOf(def.out!).type === "transform" ? fieldTypeOf(def.in!) : fieldTypeOf(def.out!);
    case "array":
      return { kind: "list", element: fieldTypeOf(def.element!) };
    case "object": {
      const fields: Record<string, TFieldType> = {};
      for (const [name, field] of Object.entries(def.shape ?? {})) fields[name] = fieldTypeOf(field);
      return { kind: "object", fields };
    }
    case "record":
      return { kind: "map" };
    case "union":
      return (def.options ?? []).map(fieldTypeOf).reduce(merge);
    case "intersection":
      return merge(fieldTypeOf(def.left!), fieldTypeOf(def.right!));
    default:
      return DYN;
  }
}

function withFields(base: TFieldType, extra: Record<string, TFieldType>): TFieldType {
  if (base.kind !== "object") throw new Error("request schemas are objects");
  return { kind: "object", fields: { ...base.fields, ...extra } };
}

/** Stored users and merchants: the request's fields plus the stored status (lowercase) and creation time. */
const STORED = { status: STRING, createdAt: DOUBLE };

const TRANSACTION = withFields(fieldTypeOf(ZTransactionFields), {
  // docs/decisions.md §13: the amount in the client's base currency, absent when no rate is known
  baseAmount: DOUBLE,
});
const STORED_USER = withFields(fieldTypeOf(ZUser), STORED);
const STORED_MERCHANT = withFields(fieldTypeOf(ZMerchantFields), STORED);
const EVENT = fieldTypeOf(ZEventFields);
const PAYMENT_INSTRUMENT = withFields(fieldTypeOf(ZPaymentInstrument), { status: STRING });

/** The variables of a rule condition per subject, with their types (`aggregates` is added per rule). */
export const SUBJECT_DECLARATIONS: Record<TRuleSubject, Record<string, TFieldType>> = {
  transaction: { transaction: TRANSACTION, user: STORED_USER, merchant: STORED_MERCHANT },
  event: { event: EVENT, user: STORED_USER, merchant: STORED_MERCHANT },
  user: { user: STORED_USER },
  merchant: { merchant: STORED_MERCHANT },
  paymentInstrument: { paymentInstrument: PAYMENT_INSTRUMENT, user: STORED_USER },
};

/** The variable of an aggregate's `where` filter: a history row of `over`, as stored. */
export const OVER_DECLARATIONS: Record<TAggregateOver, Record<string, TFieldType>> = {
  transaction: { transaction: TRANSACTION },
  event: { event: EVENT },
};

/** Functions rules may call besides CEL's own, with their signatures (cel-js syntax). */
export const RULE_FUNCTIONS = [
  // lib/sanctions: best match of a full name against the loaded sanctions lists, 0..1
  { signature: "sanctionsScore(string): double", doc: "Best sanctions match of a full name, 0..1" },
  {
    signature: "sanctionsScore(string, string): double",
    doc: "Best sanctions match of a full name and birth date (YYYY-MM-DD), 0..1",
  },
  // docs/decisions.md §10: whether the value is in the client's named list (IP values match CIDR entries)
  {
    signature: "inList(string, dyn): bool",
    doc: 'Whether a value is in the named list: inList("list", value)',
  },
] as const;

/** Every field path of a declaration, dotted (`transaction.card.binCountry`), with its type. */
export function fieldPaths(declarations: Record<string, TFieldType>): Array<{ path: string; type: string }> {
  const out: Array<{ path: string; type: string }> = [];
  const visit = (prefix: string, type: TFieldType) => {
    out.push({ path: prefix, type: typeName(type) });
    if (type.kind === "object") {
      for (const [name, field] of Object.entries(type.fields)) visit(`${prefix}.${name}`, field);
    }
  };
  for (const [name, type] of Object.entries(declarations)) visit(name, type);
  return out;
}

export function typeName(type: TFieldType): string {
  if (type.kind === "list") return `list<${typeName(type.element)}>`;
  if (type.kind === "object") return "object";
  return type.kind;
}

/** The type at a dotted path below a root declaration, or undefined when it is not declared. */
export function resolvePath(root: TFieldType, path: readonly string[]): TFieldType | undefined {
  let type: TFieldType | undefined = root;
  for (const key of path) {
    if (!type) return undefined;
    if (type.kind === "map" || type.kind === "dyn") return DYN;
    if (type.kind !== "object") return undefined;
    type = type.fields[key];
  }
  return type;
}

/** What the editor offers while typing a condition: every declared path and function, per subject. */
export function ruleCompletions(): Record<TRuleSubject, Array<{ label: string; detail: string }>> {
  const functions = RULE_FUNCTIONS.map((f) => ({
    label: f.signature.slice(0, f.signature.indexOf("(")),
    detail: f.signature,
  }));
  const linkFunctions = LINK_FUNCTIONS.map((f) => ({
    label: f.signature.slice(0, f.signature.indexOf("(")),
    detail: f.signature,
  }));
  const out = {} as Record<TRuleSubject, Array<{ label: string; detail: string }>>;
  for (const [subject, declarations] of Object.entries(SUBJECT_DECLARATIONS) as Array<
    [TRuleSubject, Record<string, TFieldType>]
  >) {
    out[subject] = [
      ...fieldPaths(declarations).map((p) => ({ label: p.path, detail: p.type })),
      { label: "aggregates", detail: "this rule's aggregates" },
      ...functions,
      ...(LINK_SUBJECTS.includes(subject) ? linkFunctions : []),
    ];
  }
  return out;
}
