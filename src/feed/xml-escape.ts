/**
 * The one owner of XML escaping on the writing side (RSS, OPML). Decoding belongs to the
 * reading side (text.ts decodeEntities).
 *
 * Why by hand: a writer must stay well-formed for ANY string a user or a remote feed hands it,
 * including control characters and lone surrogates that XML 1.0 cannot carry at all.
 */

/**
 * Characters XML 1.0 forbids anywhere (even escaped): C0 controls other than tab, LF and CR,
 * lone surrogates, U+FFFE and U+FFFF. They are dropped, not replaced, so output stays stable.
 */
const INVALID_XML_CHARS =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function stripInvalidXmlChars(s: string): string {
  return s.replace(INVALID_XML_CHARS, '');
}

/**
 * An XML document without character references to what XML 1.0 cannot hold (`&#1;`,
 * `&#xFFFE;`): a reader's parser refuses them as it refuses the raw characters.
 */
export function dropInvalidCharRefs(xml: string): string {
  return xml.replace(/&#(?:x([0-9a-fA-F]{1,8})|([0-9]{1,10}));/g, (ref, hex?: string, dec?: string) => {
    const cp = hex ? Number.parseInt(hex, 16) : Number.parseInt(dec ?? '', 10);
    return isXmlChar(cp) ? ref : '';
  });
}

/** XML 1.0's Char production. */
function isXmlChar(cp: number): boolean {
  return (
    cp === 0x9 ||
    cp === 0xa ||
    cp === 0xd ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

/**
 * Escapes character data (element content). `>` is escaped too, so `]]>` can never appear;
 * CR becomes `&#13;` because a parser would otherwise fold it into LF.
 */
export function escapeXmlText(s: string): string {
  return stripInvalidXmlChars(s).replace(/[&<>\r]/g, (c) => TEXT_ESCAPES[c] ?? c);
}

const TEXT_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '\r': '&#13;',
};

/**
 * Escapes an attribute value written between double quotes. Tab, LF and CR become character
 * references because attribute-value normalisation would otherwise turn them into spaces.
 */
export function escapeXmlAttr(s: string): string {
  return stripInvalidXmlChars(s).replace(/[&<>"\t\n\r]/g, (c) => ATTR_ESCAPES[c] ?? c);
}

const ATTR_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

/** `<name>escaped text</name>`: the common case of the writers. */
export function xmlElement(name: string, text: string): string {
  return `<${name}>${escapeXmlText(text)}</${name}>`;
}

/** ` a="1" b="2"` for the attributes whose value is not null/undefined, in the order given. */
export function xmlAttrs(
  attrs: ReadonlyArray<readonly [string, string | number | null | undefined]>,
): string {
  let out = '';
  for (const [name, value] of attrs) {
    if (value === null || value === undefined) continue;
    out += ` ${name}="${escapeXmlAttr(String(value))}"`;
  }
  return out;
}
