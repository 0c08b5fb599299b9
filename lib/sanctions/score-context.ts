// The CEL function `sanctionsScore(name[, birthDate])` and the evaluation it reads.
//
// cel-js calls function handlers without the evaluation's variables, so the index, the screened
// user's false matches and the collected hits are bound around one synchronous rule evaluation
// (`evaluateWithSanctions`): the binding never spans an await, so concurrent screenings in the
// same process cannot see each other's.
import type { SanctionsIndex, TSanctionsMatch } from "@/lib/sanctions/sanctions-index";

/** A scored entity as recorded on the decision, beside the name that was screened. */
export type TSanctionsHit = TSanctionsMatch & { screenedName: string; birthDate?: string };

export type TSanctionsEvaluation = {
  index: SanctionsIndex;
  /** entityKey()s marked as false matches for the screened user. */
  excluded: ReadonlySet<string>;
};

/** Matches recorded besides the best one: other entities scoring within this distance of it. */
const RECORD_WITHIN = 0.05;
/** Below this nothing is recorded (the score is still returned). */
const RECORD_FLOOR = 0.5;

let current: { evaluation: TSanctionsEvaluation; hits: TSanctionsHit[] } | null = null;

export function sanctionsScore(name: string, birthDate?: string): number {
  if (!current) throw new Error("sanctionsScore: no sanctions lists are available to this evaluation");
  const matches = current.evaluation.index.search(name, {
    birthDate: birthDate || null,
    excluded: current.evaluation.excluded,
  });
  const best = matches[0]?.score ?? 0;
  for (const m of matches) {
    if (m.score < RECORD_FLOOR || m.score < best - RECORD_WITHIN) continue;
    const known = current.hits.find(
      (h) => h.screenedName === name && h.datasetId === m.datasetId && h.entityId === m.entityId,
    );
    if (known) continue;
    current.hits.push({ ...m, screenedName: name, ...(birthDate ? { birthDate } : {}) });
  }
  return best;
}

/** Runs one synchronous evaluation with sanctionsScore bound to `evaluation`; returns the hits it scored. */
export function evaluateWithSanctions<T>(
  evaluation: TSanctionsEvaluation,
  evaluate: () => T,
): { result: T; hits: TSanctionsHit[] } {
  const previous = current;
  const frame = { evaluation, hits: [] as TSanctionsHit[] };
  current = frame;
  try {
    const result = evaluate();
    return { result, hits: frame.hits.sort((a, b) => b.score - a.score) };
  } finally {
    current = previous;
  }
}

/** Whether a CEL condition calls sanctionsScore (a plain text test: a false positive only costs a lookup). */
export function usesSanctions(condition: string): boolean {
  return condition.includes("sanctionsScore");
}
