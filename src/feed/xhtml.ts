/**
 * Inline XHTML (Atom type="xhtml", xhtml:body in RSS) handed on as HTML. XML allows any element
 * to be self-closed; HTML honours `/>` only on void elements (br, img ...) and inside SVG and
 * MathML, so `<iframe/>` or `<div/>` would open an element that swallows everything after it.
 * Those are written as an open and a close tag instead.
 */

/** Elements HTML never closes: `<br/>` means the same in both. */
const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

/** A tag: end marker, name, attributes (quoted values may hold '>'), self-closing slash. */
const TAG = /<(\/?)([A-Za-z][\w:.-]*)((?:[^>"'/]|"[^"]*"|'[^']*'|\/(?!>))*)(\/?)>/g;

export function xhtmlToHtml(xhtml: string | null): string | null {
  if (xhtml === null || xhtml.indexOf('/>') === -1) return xhtml;
  let foreign = 0; // depth inside <svg> / <math>, where `/>` is honoured
  return xhtml.replace(TAG, (tag, end: string, name: string, attrs: string, selfClosed: string) => {
    const lower = name.toLowerCase();
    const isForeignRoot = lower === 'svg' || lower === 'math';
    if (end) {
      if (isForeignRoot && foreign > 0) foreign--;
      return tag;
    }
    if (!selfClosed) {
      if (isForeignRoot) foreign++;
      return tag;
    }
    if (foreign > 0 || isForeignRoot || VOID.has(lower)) return tag;
    return `<${name}${attrs.trimEnd()}></${name}>`;
  });
}
