import { type KeyboardEvent, type MouseEvent, useMemo } from 'react';
import { HELD_IMAGE_ATTR, looksLikeHtml, type SanitizeOptions, sanitizeHtml } from '../lib/sanitize';

/**
 * The one place feed HTML enters the DOM, and only through DOMPurify (lib/sanitize). Plain-text
 * posts keep their line breaks. Images held back by the privacy setting load when clicked (or on
 * Enter/Space), one at a time, still without a Referer.
 */
export function SafeHtml({
  html,
  baseUrl,
  className,
  images,
}: {
  html: string;
  baseUrl: string | null;
  className?: string;
  images?: SanitizeOptions;
}) {
  const policy = images?.images;
  const allow = images?.allowImages;
  const clean = useMemo(
    () => sanitizeHtml(html, baseUrl, { images: policy, allowImages: allow }),
    [html, baseUrl, policy, allow],
  );
  const plain = !looksLikeHtml(html);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the held images inside are the buttons (role=button, tabindex=0); this only delegates their clicks.
    <div
      className={plain ? `${className ?? ''} plain-text` : className}
      onClick={loadHeldImage}
      onKeyDown={loadHeldImageByKey}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the string comes from sanitizeHtml (DOMPurify) only.
      dangerouslySetInnerHTML={{ __html: clean }}
    />
  );
}

function release(target: EventTarget | null): boolean {
  const img = (target as Element | null)?.closest?.(`img[${HELD_IMAGE_ATTR}]`);
  if (!img) return false;
  const src = img.getAttribute(HELD_IMAGE_ATTR);
  img.removeAttribute(HELD_IMAGE_ATTR);
  img.removeAttribute('role');
  img.removeAttribute('tabindex');
  img.setAttribute('alt', '');
  if (src) img.setAttribute('src', src);
  return true;
}

function loadHeldImage(event: MouseEvent) {
  // Loading a picture is not opening the item: it stays unread (ItemCard reads data-keep-unread).
  if (release(event.target)) event.stopPropagation();
}

function loadHeldImageByKey(event: KeyboardEvent) {
  if ((event.key === 'Enter' || event.key === ' ') && release(event.target)) {
    event.preventDefault();
    event.stopPropagation();
  }
}
