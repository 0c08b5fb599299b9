// Similarity of personal names: Jaro-Winkler per token, tokens aligned regardless of order.
import { skeleton, type TNameToken } from "@/lib/sanctions/normalize";

// Reused match flags: tokens are short, and scoring must not allocate per comparison.
const flagsA = new Uint8Array(64);
const flagsB = new Uint8Array(64);

/** Jaro-Winkler similarity of two strings (0..1), prefix scale 0.1 over at most 4 characters. */
export function jaroWinkler(a: string, b: string): number {
  if (a === b) return 1;
  const la = Math.min(a.length, 64);
  const lb = Math.min(b.length, 64);
  if (la === 0 || lb === 0) return 0;
  const window = Math.max(0, (Math.max(la, lb) >> 1) - 1);
  flagsA.fill(0, 0, la);
  flagsB.fill(0, 0, lb);
  let matches = 0;
  for (let i = 0; i < la; i++) {
    const from = Math.max(0, i - window);
    const to = Math.min(lb - 1, i + window);
    const ca = a.charCodeAt(i);
    for (let j = from; j <= to; j++) {
      if (flagsB[j] || b.charCodeAt(j) !== ca) continue;
      flagsA[i] = 1;
      flagsB[j] = 1;
      matches++;
      break;
    }
  }
  if (matches === 0) return 0;
  let transpositions = 0;
  let k = 0;
  for (let i = 0; i < la; i++) {
    if (!flagsA[i]) continue;
    while (!flagsB[k]) k++;
    if (a.charCodeAt(i) !== b.charCodeAt(k)) transpositions++;
    k++;
  }
  const m = matches;
  const jaro = (m / la + m / lb + (m - transpositions / 2) / m) / 3;
  let prefix = 0;
  const maxPrefix = Math.min(4, la, lb);
  while (prefix < maxPrefix && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  return jaro + prefix * 0.1 * (1 - jaro);
}

/** Token pairs below this similarity count as unmatched: they add nothing but their length. */
export const TOKEN_MATCH_FLOOR = 0.8;
/** Weight of the extra tokens of the longer name (middle names, patronymics) when the shorter is covered. */
const EXTRA_TOKEN_WEIGHT = 0.5;
/** Factor when a token of the shorter name (or of either, at equal length) found no partner. */
const UNCOVERED_FACTOR = 0.8;

/** Similarity of two normalised tokens; tokens written in Arabic script compare by consonant skeleton. */
export function tokenSimilarity(a: TNameToken, b: TNameToken): number {
  const direct = jaroWinkler(a.text, b.text);
  if (direct === 1 || !(a.fromArabic || b.fromArabic)) return direct;
  const sa = skeleton(a.text);
  const sb = skeleton(b.text);
  if (!sa || !sb) return direct;
  return Math.max(direct, jaroWinkler(sa, sb) * 0.98);
}

/**
 * Score of a screened name against one listed name (0..1). Tokens are paired greedily by similarity,
 * whatever their order; each pair counts with the length of both tokens times its similarity.
 * Tokens left without a partner count against the score with their length: fully on the name with
 * fewer tokens (and then the score is also multiplied by UNCOVERED_FACTOR: a different surname is
 * strong evidence of a different person), at EXTRA_TOKEN_WEIGHT on the longer name when the shorter
 * has at least two tokens (a listing with a patronymic the customer does not use).
 * Identical and reordered names score 1; names with no similar token score 0.
 */
export function alignTokens(
  queryLengths: ArrayLike<number>,
  nq: number,
  candidateLengths: ArrayLike<number>,
  nc: number,
  /** Token similarities, row-major: sim[q * nc + c]. */
  sim: ArrayLike<number>,
): number {
  if (nq === 0 || nc === 0) return 0;
  // Greedy assignment without allocating: repeatedly take the best remaining pair above the floor.
  let usedQ = 0;
  let usedC = 0;
  let matched = 0;
  let matchedWeight = 0;
  for (;;) {
    let bestS = TOKEN_MATCH_FLOOR;
    let bestQ = -1;
    let bestC = -1;
    for (let q = 0; q < nq; q++) {
      if (usedQ & (1 << q)) continue;
      for (let c = 0; c < nc; c++) {
        if (usedC & (1 << c)) continue;
        const s = sim[q * nc + c]!;
        if (s > bestS || (s === bestS && bestQ < 0)) {
          bestS = s;
          bestQ = q;
          bestC = c;
        }
      }
    }
    if (bestQ < 0) break;
    usedQ |= 1 << bestQ;
    usedC |= 1 << bestC;
    const w = queryLengths[bestQ]! + candidateLengths[bestC]!;
    matched += bestS * w;
    matchedWeight += w;
  }
  if (matchedWeight === 0) return 0;
  let leftQ = 0;
  let leftC = 0;
  for (let q = 0; q < nq; q++) if (!(usedQ & (1 << q))) leftQ += queryLengths[q]!;
  for (let c = 0; c < nc; c++) if (!(usedC & (1 << c))) leftC += candidateLengths[c]!;
  const extraWeight = Math.min(nq, nc) >= 2 ? EXTRA_TOKEN_WEIGHT : 1;
  let uncovered: number;
  let extra: number;
  if (nq < nc) [uncovered, extra] = [leftQ, leftC];
  else if (nc < nq) [uncovered, extra] = [leftC, leftQ];
  else [uncovered, extra] = [leftQ + leftC, 0];
  const score = matched / (matchedWeight + uncovered + extraWeight * extra);
  return uncovered > 0 ? score * UNCOVERED_FACTOR : score;
}

/** Names longer than this many tokens are cut (bit sets above hold 31 tokens; real names are shorter). */
export const MAX_NAME_TOKENS = 12;

/** Score of two names given as tokens (used by tests and as the reference for the index). */
export function nameSimilarity(query: readonly TNameToken[], candidate: readonly TNameToken[]): number {
  const q = query.slice(0, MAX_NAME_TOKENS);
  const c = candidate.slice(0, MAX_NAME_TOKENS);
  const sim = q.flatMap((a) => c.map((b) => tokenSimilarity(a, b)));
  return alignTokens(
    q.map((t) => t.text.length),
    q.length,
    c.map((t) => t.text.length),
    c.length,
    sim,
  );
}

/** Partial ISO date (YYYY, YYYY-MM or YYYY-MM-DD) or null. */
export function parsePartialDate(value: string): string | null {
  const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?/.exec(value.trim());
  if (!m) return null;
  return [m[1], m[2], m[3]].filter(Boolean).join("-");
}

/**
 * Factor applied to an entity's score for a screened birth date: 1 when the entity has no known
 * birth date, when the screened date is unknown, or when one of the entity's dates agrees at its own
 * precision ("1965" agrees with "1965-03-12"); 0.8 when a date is off by at most a year; 0.6 otherwise.
 */
export function birthDateFactor(screened: string | null, known: readonly string[]): number {
  if (!screened || known.length === 0) return 1;
  const date = parsePartialDate(screened);
  if (!date) return 1;
  let closestYears = Infinity;
  for (const k of known) {
    const common = Math.min(k.length, date.length);
    if (k.slice(0, common) === date.slice(0, common)) return 1;
    closestYears = Math.min(closestYears, Math.abs(Number(k.slice(0, 4)) - Number(date.slice(0, 4))));
  }
  return closestYears <= 1 ? 0.8 : 0.6;
}
