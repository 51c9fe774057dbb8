/**
 * The one owner of XML escaping on the writing side (RSS, OPML), plus the small decoder the
 * OPML reader uses for the five predefined entities and character references.
 *
 * Why by hand: a writer must stay well-formed for ANY string a user or a remote feed hands it,
 * including control characters and lone surrogates that XML 1.0 cannot carry at all; and the
 * reader must never expand DOCTYPE-declared entities (billion laughs), so it decodes only what
 * XML itself predefines.
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

const PREDEFINED = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
]);

/**
 * Decodes the five predefined XML entities and numeric character references, in one pass (so
 * `&amp;lt;` stays `&lt;`). Any other `&name;` is left exactly as written: entities declared in
 * a DOCTYPE are never expanded. `extraNamed` lets an HTML reader add a few names (nbsp...).
 */
export function decodeXmlEntities(s: string, extraNamed?: ReadonlyMap<string, string>): string {
  if (!s.includes('&')) return s;
  return s.replace(
    /&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z][A-Za-z0-9]{0,31});/g,
    (whole, ref: string) => {
      if (ref.startsWith('#')) {
        const code =
          ref[1] === 'x' || ref[1] === 'X'
            ? Number.parseInt(ref.slice(2), 16)
            : Number.parseInt(ref.slice(1), 10);
        if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\uFFFD';
        return String.fromCodePoint(code);
      }
      return PREDEFINED.get(ref) ?? extraNamed?.get(ref) ?? whole;
    },
  );
}
