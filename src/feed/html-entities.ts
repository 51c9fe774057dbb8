/**
 * Named character references a feed may use without declaring them: XML's five, plus the HTML 4
 * set that RSS 0.91's Netscape DTD imports (&nbsp; &eacute; &mdash; ...). A DOCTYPE's own
 * plain-text entities are expanded before this, when the tree is built (xml/dtd-entities.ts).
 */

// ISO 8859-1 names, in code point order from U+00A0.
const LATIN1 =
  'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 ' +
  'acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml ' +
  'Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde ' +
  'Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ' +
  'ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide ' +
  'oslash ugrave uacute ucirc uuml yacute thorn yuml';

const GREEK_UPPER = 'Alpha Beta Gamma Delta Epsilon Zeta Eta Theta Iota Kappa Lambda Mu Nu Xi Omicron Pi Rho';
const GREEK_UPPER2 = 'Sigma Tau Upsilon Phi Chi Psi Omega';
const GREEK_LOWER =
  'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigmaf sigma tau ' +
  'upsilon phi chi psi omega';

// Everything else in HTML 4, as name:code point.
const OTHERS =
  'quot:34 amp:38 apos:39 lt:60 gt:62 OElig:338 oelig:339 Scaron:352 scaron:353 Yuml:376 fnof:402 circ:710 ' +
  'tilde:732 thetasym:977 upsih:978 piv:982 ensp:8194 emsp:8195 thinsp:8201 zwnj:8204 zwj:8205 lrm:8206 ' +
  'rlm:8207 ndash:8211 mdash:8212 lsquo:8216 rsquo:8217 sbquo:8218 ldquo:8220 rdquo:8221 bdquo:8222 ' +
  'dagger:8224 Dagger:8225 bull:8226 hellip:8230 permil:8240 prime:8242 Prime:8243 lsaquo:8249 rsaquo:8250 ' +
  'oline:8254 frasl:8260 euro:8364 image:8465 weierp:8472 real:8476 trade:8482 alefsym:8501 larr:8592 ' +
  'uarr:8593 rarr:8594 darr:8595 harr:8596 crarr:8629 lArr:8656 uArr:8657 rArr:8658 dArr:8659 hArr:8660 ' +
  'forall:8704 part:8706 exist:8707 empty:8709 nabla:8711 isin:8712 notin:8713 ni:8715 prod:8719 sum:8721 ' +
  'minus:8722 lowast:8727 radic:8730 prop:8733 infin:8734 ang:8736 and:8743 or:8744 cap:8745 cup:8746 ' +
  'int:8747 there4:8756 sim:8764 cong:8773 asymp:8776 ne:8800 equiv:8801 le:8804 ge:8805 sub:8834 sup:8835 ' +
  'nsub:8836 sube:8838 supe:8839 oplus:8853 otimes:8855 perp:8869 sdot:8901 lceil:8968 rceil:8969 ' +
  'lfloor:8970 rfloor:8971 lang:9001 rang:9002 loz:9674 spades:9824 clubs:9827 hearts:9829 diams:9830';

function build(): Map<string, string> {
  const map = new Map<string, string>();
  const run = (names: string, first: number) => {
    names.split(' ').forEach((name, i) => {
      map.set(name, String.fromCodePoint(first + i));
    });
  };
  run(LATIN1, 0xa0);
  run(GREEK_UPPER, 913);
  run(GREEK_UPPER2, 931);
  run(GREEK_LOWER, 945);
  for (const pair of OTHERS.split(' ')) {
    const [name, code] = pair.split(':') as [string, string];
    map.set(name, String.fromCodePoint(Number(code)));
  }
  return map;
}

export const NAMED_ENTITIES: ReadonlyMap<string, string> = build();

/**
 * HTML maps numeric references in 0x80-0x9F to windows-1252 (feeds write &#146; for a quote).
 * Index = code - 0x80; 0 = keep the code point.
 */
export const C1_REMAP = [
  0x20ac, 0, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0, 0x17d, 0,
  0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0, 0x17e,
  0x178,
];
