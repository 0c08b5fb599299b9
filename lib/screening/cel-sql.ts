// Translates the common subset of CEL aggregate filters into a parameterised SQL condition.
//
// CEL and SQL agree through three-valued logic: a CEL evaluation error (missing key, comparing a
// string with a number) becomes SQL NULL, and both `error || true` and `NULL OR TRUE` are true,
// `error && false` and `NULL AND FALSE` false, and a row whose filter is an error / NULL does not
// count. Values always travel as parameters; only the row alias and fixed column names are spliced.
//
// Supported: paths on the history row (`transaction.direction`, `transaction.card.binCountry`),
// string / number / bool / null literals, == != < <= > >=, in [literal list], && || !, has(path),
// and a bool-valued path. Anything else answers null and the caller filters the rows in JS.
import type { ASTNode } from "@marcbachmann/cel-js";
import type { TAggregateOver } from "@/lib/rules/schemas";

type TColumn = { sql: string; kind: "text" | "numeric" };

/** Request paths held in indexed or updated columns; everything else is read from `data`. */
export const ROW_COLUMNS: Record<TAggregateOver, Record<string, TColumn>> = {
  transaction: {
    id: { sql: `"id"`, kind: "text" },
    userId: { sql: `"userId"`, kind: "text" },
    merchantId: { sql: `"merchantId"`, kind: "text" },
    accountId: { sql: `"accountId"`, kind: "text" },
    userDeviceId: { sql: `"userDeviceId"`, kind: "text" },
    "card.cardFingerprint": { sql: `"cardFingerprint"`, kind: "text" },
    // the stored status follows /v1/transaction/update, unlike the submitted body
    status: { sql: `"status"`, kind: "text" },
    amount: { sql: `"amount"`, kind: "numeric" },
    // the amount in the client's base currency, computed at screening (lib/fx); null without a rate
    baseAmount: { sql: `"baseAmount"`, kind: "numeric" },
  },
  event: {
    id: { sql: `"id"`, kind: "text" },
    type: { sql: `"type"`, kind: "text" },
    method: { sql: `"method"`, kind: "text" },
    userId: { sql: `"userId"`, kind: "text" },
    merchantId: { sql: `"merchantId"`, kind: "text" },
  },
};

export type TSqlParams = { values: unknown[]; add: (value: unknown, cast: string) => string };

/** Collects positional parameters; `add` answers the placeholder with its cast, e.g. `$3::jsonb`. */
export function sqlParams(initial: unknown[] = []): TSqlParams {
  const values = [...initial];
  return {
    values,
    add(value, cast) {
      values.push(value);
      return `$${values.length}::${cast}`;
    },
  };
}

type TNode = { op: string; args: unknown };
type TLiteral = { literal: string | number | bigint | boolean | null };
type TPath = { path: string[] };
type TOperand = TLiteral | TPath;

class Unsupported extends Error {}

function node(value: unknown): TNode {
  if (typeof value !== "object" || value === null || !("op" in value)) throw new Unsupported();
  return value as TNode;
}

function pathOf(n: TNode, root: string): string[] | null {
  const segments: string[] = [];
  let cur = n;
  for (;;) {
    if (cur.op === "id") return cur.args === root && segments.length > 0 ? segments.reverse() : null;
    const [target, key] = cur.args as [unknown, unknown];
    if (cur.op === ".") segments.push(key as string);
    else if (cur.op === "[]" && node(key).op === "value" && typeof node(key).args === "string") {
      segments.push(node(key).args as string);
    } else return null;
    cur = node(target);
  }
}

function operand(n: TNode, root: string): TOperand {
  if (n.op === "value") {
    const v = n.args;
    if (v === null || ["string", "number", "bigint", "boolean"].includes(typeof v)) {
      return { literal: v as TLiteral["literal"] };
    }
    throw new Unsupported();
  }
  if (n.op === "-_") {
    const inner = node(n.args);
    if (inner.op === "value" && (typeof inner.args === "number" || typeof inner.args === "bigint")) {
      return { literal: -(inner.args as number) };
    }
  }
  const path = pathOf(n, root);
  if (!path) throw new Unsupported();
  return { path };
}

function jsonLiteral(v: TLiteral["literal"]): string {
  return typeof v === "bigint" ? v.toString() : JSON.stringify(v);
}

const FLIP: Record<string, string> = { "<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!=" };

export function translateWhere(
  ast: ASTNode,
  over: TAggregateOver,
  alias: string,
  params: TSqlParams,
): string | null {
  const columns = ROW_COLUMNS[over];

  const column = (path: string[]): TColumn | undefined => columns[path.join(".")];
  const jsonb = (path: string[]): string => {
    const col = column(path);
    if (col) return `to_jsonb(${alias}.${col.sql})`;
    return `(${alias}."data" #> ${params.add(path, "text[]")})`;
  };

  const compare = (op: string, left: TOperand, right: TOperand): string => {
    if ("literal" in left && "path" in right) return compare(FLIP[op]!, right, left);
    if ("literal" in left) throw new Unsupported();
    const col = column(left.path);
    if ("path" in right) {
      if (op !== "==" && op !== "!=") throw new Unsupported();
      return `(${jsonb(left.path)} ${op === "==" ? "=" : "<>"} ${jsonb(right.path)})`;
    }
    const v = right.literal;
    if (op === "==" || op === "!=") {
      const sqlOp = op === "==" ? "=" : "<>";
      if (col?.kind === "text" && typeof v === "string")
        return `(${alias}.${col.sql} ${sqlOp} ${params.add(v, "text")})`;
      if (col?.kind === "numeric" && (typeof v === "number" || typeof v === "bigint")) {
        return `(${alias}.${col.sql} ${sqlOp} ${params.add(String(v), "numeric")})`;
      }
      return `(${jsonb(left.path)} ${sqlOp} ${params.add(jsonLiteral(v), "jsonb")})`;
    }
    // ordering: numbers with numbers, strings with strings (code-point order, as CEL); else an error
    if (typeof v === "number" || typeof v === "bigint") {
      const p = params.add(String(v), "numeric");
      if (col?.kind === "numeric") return `(${alias}.${col.sql} ${op} ${p})`;
      if (col) return "(NULL::boolean)";
      const j = jsonb(left.path);
      return `(CASE WHEN jsonb_typeof(${j}) = 'number' THEN (${j})::numeric ${op} ${p} END)`;
    }
    if (typeof v === "string") {
      const p = params.add(v, "text");
      if (col?.kind === "text") return `(${alias}.${col.sql} COLLATE "C" ${op} ${p})`;
      if (col) return "(NULL::boolean)";
      const j = jsonb(left.path);
      return `(CASE WHEN jsonb_typeof(${j}) = 'string' THEN (${j} #>> '{}') COLLATE "C" ${op} ${p} END)`;
    }
    throw new Unsupported();
  };

  const bool = (n: TNode): string => {
    switch (n.op) {
      case "&&":
      case "||": {
        const [a, b] = n.args as [unknown, unknown];
        return `(${bool(node(a))} ${n.op === "&&" ? "AND" : "OR"} ${bool(node(b))})`;
      }
      case "!_":
        return `(NOT ${bool(node(n.args))})`;
      case "==":
      case "!=":
      case "<":
      case "<=":
      case ">":
      case ">=": {
        const [a, b] = n.args as [unknown, unknown];
        return compare(n.op, operand(node(a), over), operand(node(b), over));
      }
      case "in": {
        const [a, b] = n.args as [unknown, unknown];
        const left = operand(node(a), over);
        const list = node(b);
        if (!("path" in left) || list.op !== "list") throw new Unsupported();
        const items = (list.args as unknown[]).map((item) => operand(node(item), over));
        if (items.some((i) => !("literal" in i))) throw new Unsupported();
        const literals = (items as TLiteral[]).map((i) => i.literal);
        const j = jsonb(left.path);
        if (literals.length === 0) return `(CASE WHEN ${j} IS NULL THEN NULL ELSE FALSE END)`;
        const col = column(left.path);
        if (col?.kind === "text" && literals.every((l) => typeof l === "string")) {
          return `(${alias}.${col.sql} = ANY(${params.add(literals, "text[]")}))`;
        }
        return `(${j} = ANY(${params.add(literals.map(jsonLiteral), "jsonb[]")}))`;
      }
      case "call": {
        const [name, callArgs] = n.args as [string, unknown[]];
        if (name !== "has" || callArgs.length !== 1) throw new Unsupported();
        const path = pathOf(node(callArgs[0]), over);
        if (!path) throw new Unsupported();
        const col = column(path);
        if (col) return `(${alias}.${col.sql} IS NOT NULL)`;
        if (path.length === 1) return `(${jsonb(path)} IS NOT NULL)`;
        // CEL: a missing parent is an error, a parent that is not a map simply has no such field
        return `(CASE WHEN ${jsonb(path.slice(0, -1))} IS NULL THEN NULL ELSE ${jsonb(path)} IS NOT NULL END)`;
      }
      case "value":
        if (typeof n.args === "boolean") return n.args ? "TRUE" : "FALSE";
        throw new Unsupported();
      default: {
        const path = pathOf(n, over);
        if (!path || column(path)) throw new Unsupported();
        const j = jsonb(path);
        return `(CASE WHEN jsonb_typeof(${j}) = 'boolean' THEN (${j})::boolean END)`;
      }
    }
  };

  const mark = params.values.length;
  try {
    return bool(node(ast));
  } catch (err) {
    if (!(err instanceof Unsupported)) throw err;
    params.values.length = mark;
    return null;
  }
}
