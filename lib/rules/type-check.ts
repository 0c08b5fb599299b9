// Type checking of rule expressions against the declared fields of their subject (rule-types.ts).
//
// Rules evaluate on plain maps (lib/rules/cel.ts), which cel-js cannot check beyond the variable
// names. So each expression is checked a second time in an environment where every variable has its
// declared schema: cel-js then reports type mismatches (`transaction.amount >= "10000"`) and wrong
// function signatures. Field paths are checked first by a walk of the AST, so every unknown field
// is reported (not only the first) with a suggestion when a declared one is close.
import { Environment, type ASTNode } from "@marcbachmann/cel-js";
import { RULE_FUNCTIONS, resolvePath, type TFieldType } from "@/lib/rules/rule-types";
import { LINK_FUNCTIONS, registerLinkFunctions } from "@/lib/links/link-signals";

export type TExpressionProblem = { message: string; start: number; end: number };

type TCelEnvironment = InstanceType<typeof Environment>;

/** The options and numeric operators every rule environment shares (runtime and checking). */
export function newRuleEnvironment(): TCelEnvironment {
  const env = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: false });
  const arithmetic: Record<string, (a: number, b: number) => number> = {
    "+": (a, b) => a + b,
    "-": (a, b) => a - b,
    "*": (a, b) => a * b,
    "/": (a, b) => a / b,
  };
  for (const [op, fn] of Object.entries(arithmetic)) {
    env.registerOperator(`double ${op} int`, (a: number, b: bigint) => fn(a, Number(b)));
    env.registerOperator(`int ${op} double`, (a: bigint, b: number) => fn(Number(a), b));
  }
  // Registers both operand orders and != too; ordering across int and double is built in.
  env.registerOperator("int == double", (a: bigint, b: number) => Number(a) === b);
  return env;
}

type TSchema = string | { [key: string]: TSchema };

function celSchema(type: TFieldType): TSchema {
  switch (type.kind) {
    case "object": {
      const fields: Record<string, TSchema> = {};
      for (const [name, field] of Object.entries(type.fields)) fields[name] = celSchema(field);
      return fields;
    }
    case "list":
      return type.element.kind === "object" || type.element.kind === "list"
        ? "list<dyn>"
        : `list<${celSchema(type.element) as string}>`;
    case "map":
      return "map<string, dyn>";
    default:
      return type.kind;
  }
}

const checkEnvironments = new Map<string, TCelEnvironment>();

function checkEnvironment(key: string, declarations: Record<string, TFieldType>, withAggregates: boolean) {
  const cacheKey = `${key}:${withAggregates}`;
  let env = checkEnvironments.get(cacheKey);
  if (!env) {
    env = newRuleEnvironment();
    // `transaction.amount in [1000, 2000]` checks like it runs: the runtime value is a dyn there
    env.registerOperator("double in list<int>", () => false);
    for (const [name, type] of Object.entries(declarations)) {
      const schema = celSchema(type);
      if (typeof schema === "string") env.registerVariable(name, schema);
      else env.registerVariable({ name, schema });
    }
    // aggregate names are checked by the walk below (they are the rule's own)
    if (withAggregates) env.registerVariable("aggregates", "map<string, dyn>");
    // conditions only; a subject without a user is refused by name in ruleProblems (lib/rules/cel.ts)
    if (withAggregates) registerLinkFunctions(env);
    // only checked here, never evaluated: the runtime environment registers the implementations
    for (const fn of RULE_FUNCTIONS) env.registerFunction(fn.signature, () => null);
    checkEnvironments.set(cacheKey, env);
  }
  return env;
}

// ---------------------------------------------------------------- suggestions

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      const cost = a[i - 1]!.toLowerCase() === b[j - 1]!.toLowerCase() ? 0 : 1;
      row[j] = Math.min(above + 1, row[j - 1]! + 1, diagonal + cost);
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/** The closest candidate within a small edit distance (a third of the name, at least 1, at most 3). */
export function closest(name: string, candidates: Iterable<string>): string | undefined {
  // one- and two-letter names have too many neighbours for a suggestion to mean anything
  if (name.length < 3) return undefined;
  const limit = Math.min(3, Math.max(1, Math.floor(name.length / 3)));
  let best: { name: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(name, candidate);
    if (distance <= limit && (!best || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name;
}

function didYouMean(name: string, candidates: Iterable<string>): string {
  const suggestion = closest(name, candidates);
  return suggestion ? `; did you mean ${suggestion}?` : "";
}

// ---------------------------------------------------------------- field paths

/** `pos` is where the node's own token starts (the field name of `a.b`), `start` where its source does. */
type TNode = { op: string; args: unknown; start: number; end: number; pos?: number };

function isNode(value: unknown): value is TNode {
  return typeof value === "object" && value !== null && "op" in value && "args" in value;
}

const MEMBER_OPS = new Set([".", ".?", "[]", "[?]"]);
const MACROS = new Set(["all", "exists", "exists_one", "map", "filter"]);

/** `a.b["c"]` as ["a", "b", "c"]; null when the chain is not rooted at a name or has a computed key. */
function memberPath(node: TNode): string[] | null {
  if (node.op === "id") return typeof node.args === "string" ? [node.args] : null;
  if (!MEMBER_OPS.has(node.op) || !Array.isArray(node.args)) return null;
  const [target, key] = node.args as [unknown, unknown];
  if (!isNode(target)) return null;
  const name =
    typeof key === "string"
      ? key
      : isNode(key) && key.op === "value" && typeof key.args === "string"
        ? key.args
        : null;
  if (name === null) return null;
  const parent = memberPath(target);
  return parent && [...parent, name];
}

function checkPaths(
  ast: ASTNode,
  declarations: Record<string, TFieldType>,
  aggregates: readonly string[] | null,
): TExpressionProblem[] {
  const problems: TExpressionProblem[] = [];
  const roots: Record<string, TFieldType> = { ...declarations };
  if (aggregates) {
    roots.aggregates = {
      kind: "object",
      fields: Object.fromEntries(aggregates.map((name) => [name, { kind: "dyn" } as TFieldType])),
    };
  }
  const visit = (node: unknown, bound: ReadonlySet<string>): void => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child, bound);
      return;
    }
    if (!isNode(node)) return;
    if (MEMBER_OPS.has(node.op)) {
      const path = memberPath(node);
      const root = path?.[0];
      if (path && root && !bound.has(root) && roots[root]) {
        const parent = resolvePath(roots[root], path.slice(1, -1));
        const field = path[path.length - 1]!;
        if (parent?.kind === "object" && !(field in parent.fields)) {
          const known = Object.keys(parent.fields);
          problems.push({
            start: node.pos ?? node.start,
            end: node.end,
            message:
              root === "aggregates"
                ? `aggregates.${field} is not defined by the rule${didYouMean(field, known)}`
                : `unknown field ${path.join(".")}${didYouMean(field, known)}`,
          });
          return;
        }
      }
    }
    if (node.op === "rcall" && Array.isArray(node.args)) {
      const [name, receiver, args] = node.args as [unknown, unknown, unknown];
      const variable = Array.isArray(args) && isNode(args[0]) && args[0].op === "id" ? args[0].args : null;
      visit(receiver, bound);
      if (typeof name === "string" && MACROS.has(name) && typeof variable === "string") {
        visit(args, new Set([...bound, variable]));
      } else visit(args, bound);
      return;
    }
    if (typeof node.args === "object" && node.args !== null) visit(node.args, bound);
  };
  visit(ast, new Set());
  return problems;
}

// ---------------------------------------------------------------- types

function explain(
  message: string,
  source: string,
  range: { start: number; end: number },
  { key, variables }: { key: string; variables: readonly string[] },
): string {
  const unknownVariable = /^Unknown variable: (\S+)/.exec(message);
  if (unknownVariable) {
    const name = unknownVariable[1]!;
    const [kind, subject] = key.split(":");
    const scope = kind === "over" ? `a where filter over ${subject}` : `a ${subject} rule`;
    return `unknown variable ${name}${didYouMean(name, variables)} (${scope} may use ${variables.join(", ")})`;
  }
  const call = /^found no matching overload for '([A-Za-z_][A-Za-z0-9_]*)\((.*)\)'/.exec(message);
  if (call) {
    const [, name, args] = call;
    const signatures = RULE_FUNCTIONS.filter((f) => f.signature.startsWith(`${name}(`));
    if (signatures.length) {
      return `wrong arguments: ${name}(${args}); expected ${signatures.map((f) => f.signature).join(" or ")}`;
    }
    const names = new Set(RULE_FUNCTIONS.map((f) => f.signature.slice(0, f.signature.indexOf("("))));
    return `unknown function ${name}()${didYouMean(name!, names)}`;
  }
  const linkCall = /^found no matching overload for 'Links\.([A-Za-z_]+)\((.*)\)'/.exec(message);
  if (linkCall) {
    const [, name, args] = linkCall;
    const signatures = LINK_FUNCTIONS.filter((f) => f.signature.startsWith(`links.${name}(`));
    if (signatures.length) {
      return `wrong arguments: links.${name}(${args}); expected ${signatures.map((f) => f.signature).join(" or ")}`;
    }
    return `unknown function links.${name}(); links has count(kind), count(kind, window), blockedCount() and fraudCount()`;
  }
  const operator = /^no such overload: (.+)$/.exec(message);
  if (operator) {
    return `type mismatch in ${source.slice(range.start, range.end).trim()}: no operator ${operator[1]}`;
  }
  return message;
}

export type TTypeCheck = { problems: TExpressionProblem[]; type: string | null };

/**
 * Checks an expression (already known to parse) against its variables' declarations. `aggregates`
 * lists the rule's aggregate names, or is null where `aggregates` is not a variable (where filters).
 */
export function typeCheck(
  source: string,
  {
    key,
    declarations,
    aggregates,
    rewrite,
  }: {
    /** Names the declaration set, for caching its environment. */
    key: string;
    declarations: Record<string, TFieldType>;
    aggregates: readonly string[] | null;
    /** The source as the checker should read it (same length, so positions hold). */
    rewrite?: (source: string, ast: ASTNode) => string;
  },
): TTypeCheck {
  const env = checkEnvironment(key, declarations, aggregates !== null);
  let parsed = env.parse(source);
  const paths = checkPaths(parsed.ast, declarations, aggregates);
  if (paths.length) return { problems: paths, type: null };
  if (rewrite) {
    const rewritten = rewrite(source, parsed.ast);
    if (rewritten !== source) parsed = env.parse(rewritten);
  }
  const result = parsed.check();
  if (result.valid) return { problems: [], type: result.type ?? null };
  const error = result.error as (Error & { range?: { start: number; end: number } }) | undefined;
  const range = error?.range ?? { start: 0, end: source.length };
  const variables = [...Object.keys(declarations), ...(aggregates ? ["aggregates"] : [])];
  const message = explain((error?.message ?? "Invalid expression").split("\n")[0]!.trim(), source, range, {
    key,
    variables,
  });
  return { problems: [{ message, ...range }], type: null };
}

/** `line:column` (1-based) of an offset, as compilers print positions. */
export function position(source: string, offset: number): string {
  const before = source.slice(0, offset).split("\n");
  return `${before.length}:${before[before.length - 1]!.length + 1}`;
}
