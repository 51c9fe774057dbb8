/**
 * Relative references in feeds (links, enclosures, images) resolved against xml:base, then the
 * URL the feed came from. A reference we cannot resolve is kept as written: a slightly broken
 * link is more useful to a reader than none.
 */

/** A reference that names its scheme ("https:", "mailto:") is absolute. */
export const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** `ref` made absolute against `base` (itself absolute or null). Empty refs give null. */
export function resolveUrl(ref: string | null | undefined, base: string | null): string | null {
  if (ref === null || ref === undefined) return null;
  const r = ref.trim();
  if (r === '') return null;
  // Absolute already: kept byte for byte, so ids built from links stay stable.
  if (SCHEME.test(r) || base === null) return r;
  try {
    return new URL(r, base).href;
  } catch {
    return r;
  }
}

/** The base URL in force inside an element that may carry xml:base. */
export function baseWithin(xmlBase: string | null | undefined, parentBase: string | null): string | null {
  if (!xmlBase) return parentBase;
  const resolved = resolveUrl(xmlBase, parentBase);
  return resolved !== null && SCHEME.test(resolved) ? resolved : parentBase;
}
