import { describe, expect, it } from "vitest";
import { nameTokens, normalizeName } from "@/lib/sanctions/normalize";
import { SanctionsIndexBuilder, withinOneEdit } from "@/lib/sanctions/sanctions-index";
import { birthDateFactor, jaroWinkler, nameSimilarity } from "@/lib/sanctions/similarity";

function score(a: string, b: string): number {
  return nameSimilarity(nameTokens(a), nameTokens(b));
}

describe("normalizeName", () => {
  it("folds case, diacritics and punctuation", () => {
    expect(normalizeName("  José-María  O'Néill, Jr. ")).toBe("jose maria oneill jr");
    expect(normalizeName("Müller-Lüdenscheidt")).toBe("muller ludenscheidt");
    expect(normalizeName("Łukasz Straße Øster")).toBe("lukasz strasse oster");
  });

  it("transliterates Cyrillic to Latin", () => {
    expect(normalizeName("Владимир Путин")).toBe("vladimir putin");
    expect(normalizeName("Сергей Шойгу")).toBe("sergey shoygu");
    expect(normalizeName("Юлія Ковальчук")).toBe("yuliya kovalchuk");
  });

  it("transliterates Arabic script to Latin consonants", () => {
    expect(normalizeName("محمد")).toBe("mhmd");
    const tokens = nameTokens("عمر البشير");
    expect(tokens.every((t) => t.fromArabic)).toBe(true);
  });

  it("has no tokens for a name without letters", () => {
    expect(nameTokens(" -- ., ")).toEqual([]);
  });
});

describe("name similarity", () => {
  it("scores identical names 1.0", () => {
    expect(score("Vladimir Putin", "Vladimir Putin")).toBe(1);
  });

  it("scores reordered names 1.0", () => {
    expect(score("Putin Vladimir", "Vladimir Putin")).toBe(1);
    expect(score("AL-ZAWAHIRI, Ayman", "Ayman al Zawahiri")).toBe(1);
  });

  it("ignores case and diacritics", () => {
    expect(score("JOSÉ MARÍA GÓMEZ", "jose maria gomez")).toBe(1);
  });

  it("matches a Cyrillic spelling with its Latin listing", () => {
    expect(score("Владимир Путин", "Vladimir Putin")).toBe(1);
    expect(score("Игорь Сечин", "Igor Sechin")).toBe(1);
  });

  it("matches an Arabic-script name with its Latin listing", () => {
    expect(score("محمد حسين", "Mohammed Hussein")).toBeGreaterThanOrEqual(0.9);
  });

  it("scores a one-letter typo in a name of 10+ letters at 0.9 or more", () => {
    const cases: Array<[string, string]> = [
      ["Vladimir Putin", "Vladimir Putn"], // deletion
      ["Vladimir Putin", "Vladimir Rutin"], // substitution of the first letter
      ["Ayman al-Zawahiri", "Ayman al-Zawahri"],
      ["Gazprombank", "Gazprombenk"],
      ["Ramzan Kadyrov", "Ramzan Kadyrow"],
      ["Alexander Lukashenko", "Aleksander Lukashenko"],
      ["Hassan Nasrallah", "Hasan Nasrallah"],
    ];
    for (const [listed, typed] of cases) {
      expect(score(typed, listed), `${typed} vs ${listed}`).toBeGreaterThanOrEqual(0.9);
    }
  });

  it("scores unrelated names below 0.5", () => {
    const cases: Array<[string, string]> = [
      ["Maria Garcia", "Vladimir Putin"],
      ["John Smith", "Ayman al-Zawahiri"],
      ["Li Wei", "Ramzan Kadyrov"],
      ["Emma Johansson", "Hassan Nasrallah"],
    ];
    for (const [a, b] of cases) expect(score(a, b), `${a} vs ${b}`).toBeLessThan(0.5);
  });

  it("keeps a listed name with an extra patronymic high, and a shared first name alone low", () => {
    expect(score("Vladimir Putin", "Vladimir Vladimirovich Putin")).toBeGreaterThan(0.75);
    expect(score("Vladimir Smirnov", "Vladimir Vladimirovich Putin")).toBeLessThan(0.5);
    expect(score("Vladimir Smirnov", "Vladimir Putin")).toBeLessThan(0.5);
  });

  it("Jaro-Winkler of the textbook pairs", () => {
    expect(jaroWinkler("martha", "marhta")).toBeCloseTo(0.961, 3);
    expect(jaroWinkler("dwayne", "duane")).toBeCloseTo(0.84, 2);
    expect(jaroWinkler("abc", "xyz")).toBe(0);
  });
});

describe("withinOneEdit", () => {
  it("accepts one insertion, deletion, substitution or adjacent swap and nothing more", () => {
    for (const [a, b] of [
      ["putin", "putin"],
      ["putin", "putn"],
      ["putin", "puttin"],
      ["putin", "rutin"],
      ["putin", "ptuin"],
    ]) {
      expect(withinOneEdit(a!, b!), `${a} ${b}`).toBe(true);
    }
    for (const [a, b] of [
      ["putin", "ptn"],
      ["putin", "rutim"],
      ["mohammed", "muhammad"],
      ["ab", "ba c"],
    ]) {
      expect(withinOneEdit(a!, b!), `${a} ${b}`).toBe(false);
    }
  });
});

describe("birth dates", () => {
  it("leaves the score when the dates agree or one is unknown", () => {
    expect(birthDateFactor("1952-10-07", ["1952-10-07"])).toBe(1);
    expect(birthDateFactor("1952-10-07", ["1952"])).toBe(1);
    expect(birthDateFactor(null, ["1952"])).toBe(1);
    expect(birthDateFactor("1952-10-07", [])).toBe(1);
  });

  it("lowers the score when the known birth date differs", () => {
    expect(birthDateFactor("1952-11-07", ["1952-10-07"])).toBe(0.8);
    expect(birthDateFactor("1990-01-01", ["1952-10-07", "1953"])).toBe(0.6);
  });
});

describe("SanctionsIndex", () => {
  const builder = new SanctionsIndexBuilder();
  builder.add({
    datasetId: "test",
    entityId: "e-putin",
    name: "Vladimir Vladimirovich Putin",
    aliases: ["Vladimir Putin", "Путин Владимир Владимирович"],
    birthDates: ["1952-10-07"],
    programme: "RUSSIA-EO14024",
  });
  builder.add({
    datasetId: "test",
    entityId: "e-zawahiri",
    name: "AL-ZAWAHIRI, Ayman",
    aliases: ["أيمن الظواهري"],
    birthDates: ["1951-06-19"],
    programme: "SDGT",
  });
  builder.add({
    datasetId: "test",
    entityId: "e-bank",
    name: "Gazprombank",
    aliases: [],
    birthDates: [],
    programme: "UKRAINE-EO13662",
  });
  const index = builder.build();

  it("finds the entity by an alias, reordered, with its details", () => {
    const [best] = index.search("Putin, Vladimir");
    expect(best).toMatchObject({
      score: 1,
      datasetId: "test",
      entityId: "e-putin",
      entityName: "Vladimir Vladimirovich Putin",
      matchedName: "Vladimir Putin",
      programme: "RUSSIA-EO14024",
    });
  });

  it("finds a name two edits away through its other token (transliteration variants)", () => {
    const [best] = index.search("Wladimir Poutine");
    expect(best?.entityId).toBe("e-putin");
    expect(best!.score).toBeGreaterThanOrEqual(0.85);
  });

  it("finds a single-word name with a typo, and Cyrillic and Arabic script", () => {
    expect(index.search("Gazprombamk")[0]?.score).toBeGreaterThanOrEqual(0.9);
    expect(index.search("Владимир Путин")[0]).toMatchObject({ entityId: "e-putin", score: 1 });
    expect(index.search("Ayman al-Zawahiri")[0]).toMatchObject({ entityId: "e-zawahiri", score: 1 });
  });

  it("returns nothing for an unrelated name", () => {
    expect(index.search("Maria Garcia")).toEqual([]);
  });

  it("lowers the score for another birth date and skips excluded entities", () => {
    const other = index.search("Vladimir Putin", { birthDate: "1990-01-01" })[0];
    expect(other?.score).toBeCloseTo(0.6, 5);
    expect(index.search("Vladimir Putin", { birthDate: "1952-10-07" })[0]?.score).toBe(1);
    expect(index.search("Vladimir Putin", { excluded: new Set(["test/e-putin"]) })).toEqual([]);
  });
});
