/**
 * "One picture once" (issue 35): a news item's media thumbnail is very often the first picture of
 * its own text too, at another size. Two addresses name the same picture when they agree once
 * these are set aside:
 * - the scheme (http/https) and a leading "www.";
 * - size and format query parameters (w, h, width, height, resize, fit, crop, quality, q,
 *   format, auto, dpr, s, sig: WordPress/Jetpack, the Guardian, imgix) — other parameters stay,
 *   since `image.php?id=1` and `?id=2` are two pictures;
 * - a WordPress size suffix ("photo-1024x683.jpg" is "photo.jpg"), a "@2x" retina suffix;
 * - a path segment that is only a size ("/news/240/..." and "/news/976/..." on the BBC's ichef)
 *   or a transformation list ("/w_300,h_200,c_fill/" on Cloudinary-style CDNs);
 * - an image proxy's wrapped address ("/image/fetch/.../https%3A%2F%2F..." on Substack's CDN).
 * Not attempted: CDNs that name each size with an opaque hash (the same picture looks new).
 */

const SIZE_PARAMS = new Set([
  'w',
  'h',
  'width',
  'height',
  'resize',
  'fit',
  'crop',
  'quality',
  'q',
  'format',
  'fm',
  'auto',
  'dpr',
  's',
  'sig',
  'strip',
  'ssl',
]);

/** A canonical form of an image address for comparison (not for loading); null when unparseable. */
export function imageKey(raw: string, base?: string | null): string | null {
  let url: URL;
  try {
    url = new URL(raw.trim(), base ?? undefined);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  // A proxy wrapping the real address: compare the real one.
  const wrapped = /(https?)(?::|%3A)(?:\/|%2F){2}[^?#]+$/i.exec(url.pathname.slice(1));
  if (wrapped && wrapped.index > 0) {
    try {
      return imageKey(decodeURIComponent(wrapped[0]));
    } catch {
      // Not a wrapped address after all: compare it as it is.
    }
  }
  const host = url.hostname.toLowerCase().replace(/^www\./, '');
  const segments = url.pathname
    .split('/')
    .filter(
      (seg) => seg !== '' && !/^\d{2,4}(x\d{2,4})?$/.test(seg) && !/^([a-z]{1,2}_[^,/]+,?)+$/i.test(seg),
    );
  const last = segments.pop() ?? '';
  const file = last.replace(/-\d{2,5}x\d{2,5}(?=\.[a-z0-9]+$)/i, '').replace(/@[23]x(?=\.[a-z0-9]+$)/i, '');
  const kept = [...url.searchParams]
    .filter(([name]) => !SIZE_PARAMS.has(name.toLowerCase()))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  return `${host}/${[...segments, file].join('/')}${kept ? `?${kept}` : ''}`.toLowerCase();
}

/** Every picture address in an HTML string: img src, and each candidate of srcset (img, source). */
export function imageAddresses(html: string): string[] {
  const out: string[] = [];
  const tag = /<(?:img|source)\b[^>]*>/gi;
  for (const m of html.matchAll(tag)) {
    const attrs = m[0];
    const src = /\ssrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(attrs);
    const value = src?.[1] ?? src?.[2] ?? src?.[3];
    if (value) out.push(decodeEntities(value));
    const set = /\ssrcset\s*=\s*(?:"([^"]*)"|'([^']*)')/i.exec(attrs);
    for (const candidate of (set?.[1] ?? set?.[2] ?? '').split(',')) {
      const address = candidate.trim().split(/\s+/)[0];
      if (address) out.push(decodeEntities(address));
    }
  }
  return out;
}

const decodeEntities = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&#38;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");

/** Whether `picture` is one of the pictures in `html` (relative addresses resolved against `base`). */
export function pictureIn(picture: string, html: string | null, base: string | null): boolean {
  if (!html || !/<(img|source)\b/i.test(html)) return false;
  const key = imageKey(picture, base);
  if (key === null) return false;
  return imageAddresses(html).some((address) => imageKey(address, base) === key);
}
