// The goAML-shaped content of a report (docs/decisions.md §8). Keys are goAML element names so the XML is a
// mechanical rendering; a required value that could not be derived is null, which is what makes a
// report "incomplete". Optional elements that are unknown are simply absent.

export type TLeaf = string | number | boolean | null;
export type TContentNode = TLeaf | TContentNode[] | { [key: string]: TContentNode | undefined };
export type TContent = { [key: string]: TContentNode | undefined };

/** Content paths that a valid goAML file still lacks: every null leaf, and an empty indicator list. */
export function incompletePaths(content: TContent): string[] {
  const out: string[] = [];
  const walk = (node: TContentNode | undefined, path: string) => {
    if (node === undefined) return;
    if (node === null) {
      out.push(path);
      return;
    }
    if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, `${path}[${i}]`));
      return;
    }
    if (typeof node === "object") {
      for (const [key, value] of Object.entries(node)) walk(value, path ? `${path}.${key}` : key);
    }
  };
  walk(content, "");
  const indicators = content.report_indicators;
  if (!Array.isArray(indicators) || indicators.length === 0) out.push("report_indicators");
  return out;
}

type TSegment = string | number;

export function parsePath(path: string): TSegment[] | null {
  if (!/^[a-z_0-9]+(\[\d+\])*(\.[a-z_0-9]+(\[\d+\])*)*$/.test(path)) return null;
  const segments: TSegment[] = [];
  for (const part of path.split(".")) {
    const [name, ...indexes] = part.split("[");
    segments.push(name!);
    for (const index of indexes) segments.push(Number(index.slice(0, -1)));
  }
  return segments;
}

export function getAtPath(content: TContent, path: string): TContentNode | undefined {
  const segments = parsePath(path);
  if (!segments) return undefined;
  let node: TContentNode | undefined = content;
  for (const segment of segments) {
    if (node === null || node === undefined || typeof node !== "object") return undefined;
    node = Array.isArray(node)
      ? typeof segment === "number"
        ? node[segment]
        : undefined
      : typeof segment === "string"
        ? node[segment]
        : undefined;
  }
  return node;
}

/**
 * A copy of the content with one leaf replaced (with `create`, also a leaf its parent object does not have yet;
 * `undefined` removes it); null when the path names no leaf.
 */
export function setAtPath(
  content: TContent,
  path: string,
  value: TLeaf | undefined,
  { create = false }: { create?: boolean } = {},
): TContent | null {
  const segments = parsePath(path);
  if (!segments) return null;
  const copy = structuredClone(content);
  let node: TContentNode | undefined = copy;
  for (const [i, segment] of segments.entries()) {
    if (node === null || node === undefined || typeof node !== "object") return null;
    const last = i === segments.length - 1;
    const container = node as Record<string | number, TContentNode | undefined>;
    if (Array.isArray(node) !== (typeof segment === "number")) return null;
    if (!(segment in container) && !(last && create && typeof segment === "string")) return null;
    if (last) {
      const current = container[segment];
      if (current !== null && typeof current === "object") return null;
      if (value === undefined) delete container[segment];
      else container[segment] = value;
      return copy;
    }
    node = container[segment];
  }
  return null;
}
