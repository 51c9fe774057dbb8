/**
 * Entities a document declares in its DOCTYPE's internal subset (`<!ENTITY id "urn:x:1">`, then
 * `&id;` in a guid), expanded where they are used, safely:
 * - only internal entities whose value is plain text: no markup, no reference to another
 *   declared entity (so no nesting and no billion laughs), only character references and XML's
 *   five; a value is at most MAX_VALUE characters;
 * - never an external entity (SYSTEM / PUBLIC: nothing is fetched or read) nor a parameter entity;
 * - everything expansion adds to a document is capped at MAX_ADDED characters; past it,
 *   references stay as written.
 * A reference nobody declared, or declared otherwise, stays as written (as before).
 */

const MAX_VALUE = 4096;
const MAX_ENTITIES = 1000;
export const MAX_ADDED = 1_000_000;

const DECLARATION = /<!ENTITY\s+([A-Za-z_][\w.-]*)\s+(?:"([^"]*)"|'([^']*)')\s*>/g;
/** A value's references: character references and XML's five only. */
const PLAIN_REFERENCES = /&(?!(?:#[0-9]{1,7}|#x[0-9A-Fa-f]{1,6}|amp|lt|gt|quot|apos);)/;
const REFERENCE = /&([A-Za-z_][\w.-]*);/g;

export class DeclaredEntities {
  /** null: declared, but not plain text, so never expanded. */
  private readonly values: Map<string, string | null>;
  /** Characters expansion may still add to this document. */
  private budget = MAX_ADDED;

  private constructor(values: Map<string, string | null>) {
    this.values = values;
  }

  /** The plain-text entities the DOCTYPE text declares, or null when there are none. */
  static from(doctype: string): DeclaredEntities | null {
    const open = doctype.indexOf('[');
    const close = doctype.lastIndexOf(']');
    if (open === -1 || close < open) return null;
    const subset = doctype.slice(open + 1, close).replace(/<!--[\s\S]*?-->/g, '');
    const values = new Map<string, string | null>();
    for (const m of subset.matchAll(DECLARATION)) {
      const name = m[1]!;
      const value = m[2] ?? m[3] ?? '';
      // The first declaration binds (XML 1.0, 4.2); a value that is not plain text is never used.
      if (values.has(name) || values.size >= MAX_ENTITIES) continue;
      const plain = value.length <= MAX_VALUE && !value.includes('<') && !PLAIN_REFERENCES.test(value);
      values.set(name, plain ? value : null);
    }
    return [...values.values()].some((v) => v !== null) ? new DeclaredEntities(values) : null;
  }

  /**
   * `raw` with references to declared entities replaced by their values (still escaped: the
   * caller decodes once, as for any text). CDATA sections and comments are left alone.
   */
  expand(raw: string): string {
    if (raw.indexOf('&') === -1) return raw;
    if (raw.indexOf('<!') === -1) return this.expandText(raw);
    let out = '';
    let i = 0;
    for (;;) {
      const lt = raw.indexOf('<!', i);
      if (lt === -1) return out + this.expandText(raw.slice(i));
      const cdata = raw.startsWith('<![CDATA[', lt);
      const marker = cdata ? ']]>' : raw.startsWith('<!--', lt) ? '-->' : null;
      const end = marker === null ? lt + 2 : raw.indexOf(marker, lt + 4);
      const stop = end === -1 ? raw.length : marker === null ? end : end + 3;
      out += this.expandText(raw.slice(i, lt)) + raw.slice(lt, stop);
      i = stop;
      if (i >= raw.length) return out;
    }
  }

  private expandText(s: string): string {
    if (s.indexOf('&') === -1) return s;
    return s.replace(REFERENCE, (ref, name: string) => {
      const value = this.values.get(name);
      if (value === undefined || value === null || value.length > this.budget) return ref;
      this.budget -= value.length;
      return value;
    });
  }
}
