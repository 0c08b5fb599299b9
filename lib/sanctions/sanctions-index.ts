// In-memory index of every loaded sanctions name, built once per dataset version in each process.
//
// Names are stored as token ids into one vocabulary of distinct normalised tokens, with a posting
// list per token. A search only scores names that share a token within one edit of a screened token
// (found through two half-token keys per vocabulary entry: one edit leaves either the first or the
// second half of a token intact) or, for Arabic script, the same consonant skeleton.
//
// PREFILTER: of those, a name of several tokens that shares only one token with a screened name of
// several tokens is scored only when that token carries at least half of the screened letters.
// Skipped names would score about 0.65 at most (one shared first name, different surname), and
// count as 0: rules should use thresholds above 0.7 (the demo rules use 0.85).
import { nameTokens, skeleton, type TNameToken } from "@/lib/sanctions/normalize";
import {
  alignTokens,
  birthDateFactor,
  MAX_NAME_TOKENS,
  TOKEN_MATCH_FLOOR,
  tokenSimilarity,
} from "@/lib/sanctions/similarity";

export type TSanctionsEntityInput = {
  datasetId: string;
  entityId: string;
  name: string;
  aliases: readonly string[];
  birthDates: readonly string[];
  programme: string | null;
};

export type TSanctionsMatch = {
  score: number;
  datasetId: string;
  entityId: string;
  /** The entity's primary name. */
  entityName: string;
  /** The listed name or alias that scored best. */
  matchedName: string;
  programme: string | null;
};

/** Key of an entity in false-match sets (dataset ids never contain "/"). */
export function entityKey(datasetId: string, entityId: string): string {
  return `${datasetId}/${entityId}`;
}

// Scratch space for scoring one candidate (search is synchronous, so one set per process suffices).
const scratchLengths = new Int32Array(MAX_NAME_TOKENS);
const scratchSim = new Float64Array(MAX_NAME_TOKENS * MAX_NAME_TOKENS);

class GrowableInt32 {
  data = new Int32Array(1024);
  length = 0;
  push(value: number): void {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = value;
  }
  toArray(): Int32Array {
    return this.data.slice(0, this.length);
  }
}

/** Optimal string alignment distance of at most 1 (one insertion, deletion, substitution or swap). */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > 1) return false;
  let i = 0;
  while (i < la && i < lb && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (la === lb) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true; // substitution
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2); // swap
  }
  return la > lb ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

function blockKeys(token: string): [string, string] {
  const h = token.length >> 1;
  return [`P${token.length}:${token.slice(0, h)}`, `S${token.length}:${token.slice(h)}`];
}

function pushTo(map: Map<string, number[]>, key: string, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export class SanctionsIndexBuilder {
  private entities: Array<Omit<TSanctionsEntityInput, "aliases">> = [];
  private nameEntity = new GrowableInt32();
  private nameText: string[] = [];
  private tokenStart = new GrowableInt32();
  private tokenIds = new GrowableInt32();
  private vocab: TNameToken[] = [];
  private vocabIds = new Map<string, number>();

  add(entity: TSanctionsEntityInput): void {
    const index = this.entities.length;
    this.entities.push({
      datasetId: entity.datasetId,
      entityId: entity.entityId,
      name: entity.name,
      birthDates: entity.birthDates,
      programme: entity.programme,
    });
    const seen = new Set<string>();
    for (const name of [entity.name, ...entity.aliases]) {
      const tokens = nameTokens(name).slice(0, MAX_NAME_TOKENS);
      if (tokens.length === 0) continue;
      const key = tokens.map((t) => (t.fromArabic ? "\u0001" : "") + t.text).join(" ");
      if (seen.has(key)) continue;
      seen.add(key);
      this.nameEntity.push(index);
      this.nameText.push(name);
      this.tokenStart.push(this.tokenIds.length);
      for (const token of tokens) this.tokenIds.push(this.vocabId(token));
    }
  }

  private vocabId(token: TNameToken): number {
    const key = (token.fromArabic ? "\u0001" : "") + token.text;
    let id = this.vocabIds.get(key);
    if (id === undefined) {
      id = this.vocab.length;
      this.vocab.push(token);
      this.vocabIds.set(key, id);
    }
    return id;
  }

  build(): SanctionsIndex {
    this.tokenStart.push(this.tokenIds.length);
    return new SanctionsIndex({
      entities: this.entities,
      nameEntity: this.nameEntity.toArray(),
      nameText: this.nameText,
      tokenStart: this.tokenStart.toArray(),
      tokenIds: this.tokenIds.toArray(),
      vocab: this.vocab,
      vocabIds: this.vocabIds,
    });
  }
}

type TIndexParts = {
  entities: Array<Omit<TSanctionsEntityInput, "aliases">>;
  nameEntity: Int32Array;
  nameText: string[];
  tokenStart: Int32Array;
  tokenIds: Int32Array;
  vocab: TNameToken[];
  vocabIds: Map<string, number>;
};

export class SanctionsIndex {
  readonly entityCount: number;
  readonly nameCount: number;
  private readonly parts: TIndexParts;
  private readonly vocabLength: Int32Array;
  private readonly postingStart: Int32Array;
  private readonly postings: Int32Array;
  private readonly blocks = new Map<string, number[]>();
  private readonly skeletonsAll = new Map<string, number[]>();
  private readonly skeletonsArabic = new Map<string, number[]>();
  private readonly seenStamp: Int32Array;
  /** Per name, the screened tokens (bit per token) that reached it in the current search. */
  private readonly reachedBy: Int32Array;
  private stamp = 0;

  constructor(parts: TIndexParts) {
    this.parts = parts;
    this.entityCount = parts.entities.length;
    this.nameCount = parts.nameEntity.length;
    const vocabSize = parts.vocab.length;
    this.vocabLength = new Int32Array(vocabSize);
    parts.vocab.forEach((t, i) => {
      this.vocabLength[i] = t.text.length;
      for (const key of blockKeys(t.text)) pushTo(this.blocks, key, i);
      const s = skeleton(t.text);
      if (s.length >= 1) {
        pushTo(this.skeletonsAll, s, i);
        if (t.fromArabic) pushTo(this.skeletonsArabic, s, i);
      }
    });
    // postings: names per vocabulary token (counting sort over the flat token list)
    const counts = new Int32Array(vocabSize + 1);
    for (let n = 0; n < this.nameCount; n++) {
      const seen = new Set<number>();
      for (let k = parts.tokenStart[n]!; k < parts.tokenStart[n + 1]!; k++) seen.add(parts.tokenIds[k]!);
      for (const v of seen) counts[v + 1]!++;
    }
    for (let v = 0; v < vocabSize; v++) counts[v + 1]! += counts[v]!;
    this.postingStart = counts.slice();
    this.postings = new Int32Array(counts[vocabSize]!);
    const fill = counts.slice(0, vocabSize);
    for (let n = 0; n < this.nameCount; n++) {
      const seen = new Set<number>();
      for (let k = parts.tokenStart[n]!; k < parts.tokenStart[n + 1]!; k++) {
        const v = parts.tokenIds[k]!;
        if (seen.has(v)) continue;
        seen.add(v);
        this.postings[fill[v]!++] = n;
      }
    }
    this.seenStamp = new Int32Array(this.nameCount);
    this.reachedBy = new Int32Array(this.nameCount);
  }

  /**
   * Vocabulary tokens to follow for `token`: the same token, tokens one edit away (insertion,
   * deletion, substitution or adjacent transposition) and, for Arabic script, the same consonant
   * skeleton. Their similarities go into `sims`, the cache the scorer also fills lazily.
   */
  private neighbours(token: TNameToken, sims: Map<number, number>): number[] {
    const reach: number[] = [];
    const q = token.text;
    const consider = (ids: readonly number[] | undefined, always: boolean) => {
      for (const v of ids ?? []) {
        if (sims.has(v)) continue;
        const s = tokenSimilarity(token, this.parts.vocab[v]!);
        sims.set(v, s);
        if (s >= TOKEN_MATCH_FLOOR && (always || withinOneEdit(q, this.parts.vocab[v]!.text))) reach.push(v);
      }
    };
    for (let len = Math.max(1, q.length - 1); len <= q.length + 1; len++) {
      const h = len >> 1;
      if (h <= q.length) consider(this.blocks.get(`P${len}:${q.slice(0, h)}`), false);
      const suffix = len - h;
      if (suffix <= q.length) consider(this.blocks.get(`S${len}:${q.slice(q.length - suffix)}`), false);
    }
    const s = skeleton(q);
    if (s) consider(token.fromArabic ? this.skeletonsAll.get(s) : this.skeletonsArabic.get(s), true);
    return reach;
  }

  /**
   * The best-scoring entities for a screened name (at most `limit`, best first, one per entity).
   * `excluded` holds entityKey()s that must not score (false matches recorded for the screened user).
   */
  search(
    name: string,
    options: { birthDate?: string | null; excluded?: ReadonlySet<string>; limit?: number } = {},
  ): TSanctionsMatch[] {
    const query = nameTokens(name).slice(0, MAX_NAME_TOKENS);
    if (query.length === 0 || this.nameCount === 0) return [];
    const limit = options.limit ?? 3;
    const excluded = options.excluded && options.excluded.size > 0 ? options.excluded : null;
    const { parts } = this;
    const sims = query.map(() => new Map<number, number>());
    const reach = query.map((t, qi) => this.neighbours(t, sims[qi]!));

    this.stamp++;
    if (this.stamp === 0x7fffffff) {
      this.seenStamp.fill(0);
      this.stamp = 1;
    }
    const queryLengths = query.map((t) => t.text.length);
    const queryWeight = queryLengths.reduce((a, b) => a + b, 0);
    const reached: number[] = [];
    reach.forEach((vocabIds, qi) => {
      for (const v of vocabIds) {
        for (let p = this.postingStart[v]!; p < this.postingStart[v + 1]!; p++) {
          const n = this.postings[p]!;
          if (this.seenStamp[n] !== this.stamp) {
            this.seenStamp[n] = this.stamp;
            this.reachedBy[n] = 0;
            reached.push(n);
          }
          this.reachedBy[n]! |= 1 << qi;
        }
      }
    });
    // Pre-filter (see PREFILTER in the header): scored are names reached by two screened tokens, or
    // by one carrying half the screened letters, or names of one token, or any name for a one-token query.
    const candidates = reached.filter((n) => {
      const mask = this.reachedBy[n]!;
      if (query.length === 1 || (mask & (mask - 1)) !== 0) return true;
      if (parts.tokenStart[n + 1]! - parts.tokenStart[n]! === 1) return true;
      return queryLengths[31 - Math.clz32(mask)]! * 2 > queryWeight;
    });

    const best: TSanctionsMatch[] = [];
    const nq = query.length;
    for (const n of candidates) {
      const e = parts.nameEntity[n]!;
      const entity = parts.entities[e]!;
      if (excluded?.has(entityKey(entity.datasetId, entity.entityId))) continue;
      const from = parts.tokenStart[n]!;
      const nc = parts.tokenStart[n + 1]! - from;
      for (let c = 0; c < nc; c++) {
        const v = parts.tokenIds[from + c]!;
        scratchLengths[c] = this.vocabLength[v]!;
        for (let q = 0; q < nq; q++) {
          const cache = sims[q]!;
          let s = cache.get(v);
          if (s === undefined) {
            s = tokenSimilarity(query[q]!, parts.vocab[v]!);
            cache.set(v, s);
          }
          scratchSim[q * nc + c] = s;
        }
      }
      let score = alignTokens(queryLengths, nq, scratchLengths, nc, scratchSim);
      if (score <= 0) continue;
      score *= birthDateFactor(options.birthDate ?? null, entity.birthDates);
      insertBest(best, limit, score, () => ({
        score,
        datasetId: entity.datasetId,
        entityId: entity.entityId,
        entityName: entity.name,
        matchedName: parts.nameText[n]!,
        programme: entity.programme,
      }));
    }
    return best.map((m) => ({ ...m, score: Math.round(m.score * 10_000) / 10_000 }));
  }
}

/** Keeps `best` sorted, one entry per entity, at most `limit` long. */
function insertBest(
  best: TSanctionsMatch[],
  limit: number,
  score: number,
  make: () => TSanctionsMatch,
): void {
  if (best.length === limit && score <= best[best.length - 1]!.score) return;
  const match = make();
  const same = best.findIndex((b) => b.datasetId === match.datasetId && b.entityId === match.entityId);
  if (same >= 0) {
    if (best[same]!.score >= score) return;
    best.splice(same, 1);
  }
  let at = best.findIndex((b) => b.score < score);
  if (at < 0) at = best.length;
  best.splice(at, 0, match);
  if (best.length > limit) best.pop();
}
