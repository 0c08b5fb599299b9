// Name normalisation for sanctions matching: one Latin spelling per name, as lowercase tokens.
//
// Case and diacritics are folded (NFKD, combining marks dropped, a few letters that do not decompose
// mapped by hand), Cyrillic and Arabic script are transliterated to Latin, punctuation separates
// tokens (apostrophes and dots inside a token are dropped: "O'Neil" → "oneil"), and token order is
// left to the scorer, which aligns tokens regardless of their order.

const LATIN_EXTRA: Record<string, string> = {
  ß: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  đ: "d",
  ð: "d",
  ł: "l",
  ı: "i",
  þ: "th",
  ħ: "h",
  ŋ: "n",
};

// Common practical romanisation (close to BGN/PCGN without diacritics), Russian, Ukrainian, Belarusian.
// prettier-ignore
const CYRILLIC: Record<string, string> = {
  а: "a", б: "b", в: "v", г: "g", д: "d", е: "e", ё: "e", ж: "zh", з: "z", и: "i", й: "y",
  к: "k", л: "l", м: "m", н: "n", о: "o", п: "p", р: "r", с: "s", т: "t", у: "u", ф: "f",
  х: "kh", ц: "ts", ч: "ch", ш: "sh", щ: "shch", ъ: "", ы: "y", ь: "", э: "e", ю: "yu", я: "ya",
  і: "i", ї: "yi", є: "ye", ґ: "g", ў: "u", ђ: "dj", ј: "j", љ: "lj", њ: "nj", ћ: "c", џ: "dz",
};

// Arabic script has no short vowels, so transliterated tokens are consonant skeletons; the scorer
// compares them with the consonant skeletons of Latin tokens (see `skeleton`).
// prettier-ignore
const ARABIC: Record<string, string> = {
  ا: "a", أ: "a", إ: "i", آ: "a", ٱ: "a", ب: "b", ت: "t", ث: "th", ج: "j", ح: "h", خ: "kh",
  د: "d", ذ: "dh", ر: "r", ز: "z", س: "s", ش: "sh", ص: "s", ض: "d", ط: "t", ظ: "z", ع: "",
  غ: "gh", ف: "f", ق: "q", ك: "k", ل: "l", م: "m", ن: "n", ه: "h", و: "w", ي: "y", ى: "a",
  ة: "a", ء: "", ئ: "y", ؤ: "w", پ: "p", چ: "ch", ژ: "zh", گ: "g", ک: "k", ی: "y",
};

const ARABIC_RANGE = /[\u0600-\u06ff]/;

export type TNameToken = {
  text: string;
  /** Transliterated from Arabic script: short vowels are missing, compare skeletons. */
  fromArabic: boolean;
};

function transliterateChar(ch: string): string {
  return CYRILLIC[ch] ?? ARABIC[ch] ?? LATIN_EXTRA[ch] ?? ch;
}

/** Lowercase Latin tokens of a personal or entity name; empty for a name with no letters or digits. */
export function nameTokens(name: string): TNameToken[] {
  const tokens: TNameToken[] = [];
  // Split first so each token knows its script; apostrophes, dots and hyphens-in-initials are joined.
  const raw = name
    .normalize("NFKC")
    .toLowerCase()
    .replace(/['’ʼ`´.]/g, "")
    .split(/[^\p{L}\p{N}]+/u);
  for (const part of raw) {
    if (!part) continue;
    const fromArabic = ARABIC_RANGE.test(part);
    let out = "";
    for (const ch of part) out += transliterateChar(ch);
    out = out
      .normalize("NFKD")
      .replace(/\p{M}/gu, "")
      .replace(/[^a-z0-9]/g, (ch) => LATIN_EXTRA[ch] ?? "");
    if (out) tokens.push({ text: out, fromArabic });
  }
  return tokens;
}

/** The normalised form of a name as one string (tokens in their original order). */
export function normalizeName(name: string): string {
  return nameTokens(name)
    .map((t) => t.text)
    .join(" ");
}

/** Consonant skeleton: vowels and semivowels dropped, doubled letters collapsed ("mohammed" → "mhmd"). */
export function skeleton(token: string): string {
  let out = "";
  for (const ch of token) {
    if ("aeiouwy".includes(ch)) continue;
    if (out.endsWith(ch)) continue;
    out += ch;
  }
  return out;
}
