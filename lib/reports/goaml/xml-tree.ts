// A small XML reader for XSD files: elements, attributes, text and comments (goAML keeps some lookup labels in
// comments). No DTDs or entities beyond the five predefined ones; XSDs do not need them.

export type TXmlNode = {
  name: string;
  attrs: Record<string, string>;
  children: TXmlNode[];
  text: string;
  comments: string[];
};

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, ref: string) => {
    if (ref.startsWith("#x") || ref.startsWith("#X")) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (ref.startsWith("#")) return String.fromCodePoint(Number(ref.slice(1)));
    return ENTITIES[ref] ?? whole;
  });
}

/** The element tree of an XML document; throws with a position when the text is not well-formed. */
export function parseXml(xml: string): TXmlNode {
  const root: TXmlNode = { name: "#document", attrs: {}, children: [], text: "", comments: [] };
  const stack: TXmlNode[] = [root];
  let i = 0;
  const fail = (message: string): never => {
    throw new Error(`${message} at character ${i}`);
  };
  while (i < xml.length) {
    const lt = xml.indexOf("<", i);
    const top = stack[stack.length - 1]!;
    if (lt === -1) {
      top.text += decode(xml.slice(i));
      break;
    }
    if (lt > i) top.text += decode(xml.slice(i, lt));
    i = lt;
    if (xml.startsWith("<!--", i)) {
      const end = xml.indexOf("-->", i);
      if (end === -1) fail("Unclosed comment");
      top.comments.push(xml.slice(i + 4, end).trim());
      i = end + 3;
    } else if (xml.startsWith("<![CDATA[", i)) {
      const end = xml.indexOf("]]>", i);
      if (end === -1) fail("Unclosed CDATA");
      top.text += xml.slice(i + 9, end);
      i = end + 3;
    } else if (xml.startsWith("<?", i) || xml.startsWith("<!", i)) {
      const end = xml.indexOf(">", i);
      if (end === -1) fail("Unclosed declaration");
      i = end + 1;
    } else if (xml.startsWith("</", i)) {
      const end = xml.indexOf(">", i);
      const name = xml.slice(i + 2, end).trim();
      const open = stack.pop();
      if (!open || open.name !== name || stack.length === 0) fail(`Unexpected </${name}>`);
      i = end + 1;
    } else {
      const match = /^<([\w:.-]+)((?:\s+[\w:.-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/.exec(
        xml.slice(i, i + 4000),
      );
      if (!match) fail("Malformed tag");
      const node: TXmlNode = { name: match![1]!, attrs: {}, children: [], text: "", comments: [] };
      for (const a of match![2]!.matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g))
        node.attrs[a[1]!] = decode(a[2] ?? a[3] ?? "");
      top.children.push(node);
      if (!match![3]) stack.push(node);
      i += match![0].length;
    }
  }
  if (stack.length !== 1) fail(`Unclosed <${stack[stack.length - 1]!.name}>`);
  const element = root.children[0];
  if (!element) throw new Error("No root element");
  return element;
}

/** Local name without its namespace prefix (xs:element → element). */
export function localName(node: TXmlNode): string {
  const colon = node.name.indexOf(":");
  return colon === -1 ? node.name : node.name.slice(colon + 1);
}
