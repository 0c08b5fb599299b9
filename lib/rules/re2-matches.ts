// CEL's `matches` with RE2 semantics and linear-time matching (re2js, pure JS). JavaScript's own
// regular expressions backtrack: `^(a+)+$` on a few dozen characters takes seconds, and a rule
// author chooses the pattern. RE2 refuses what it cannot match in linear time (backreferences,
// lookaround), which is also what CEL's specification says `matches` accepts.
import { RE2JS } from "re2js";
import { boundedCache } from "@/lib/cache/bounded-cache";

// patterns come from rule versions (a few per rule), or from data when a rule passes one along
const compiled = boundedCache<RE2JS>(1_000);

/** The pattern compiled; throws RE2's syntax error when it refuses the pattern. */
function compile(pattern: string): RE2JS {
  let re = compiled.get(pattern);
  if (!re) {
    re = RE2JS.compile(pattern);
    compiled.set(pattern, re);
  }
  return re;
}

/** Why RE2 refuses a pattern (`missing closing ): (a`), or null when it compiles. */
export function patternProblem(pattern: string): string | null {
  try {
    compile(pattern);
    return null;
  } catch (err) {
    return reason(err);
  }
}

function reason(err: unknown): string {
  return (err as Error).message.replace(/^error parsing regexp: /, "");
}

/** Whether the pattern matches any part of the input (CEL `matches`: an unanchored search). */
export function re2Matches(input: string, pattern: string): boolean {
  let re: RE2JS;
  try {
    re = compile(pattern);
  } catch (err) {
    throw new Error(`invalid regular expression ${JSON.stringify(pattern)}: ${reason(err)}`);
  }
  return re.test(input);
}
