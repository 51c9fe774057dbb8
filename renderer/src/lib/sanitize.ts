/**
 * Feed HTML is hostile until DOMPurify says otherwise. This is the only way item text reaches the
 * DOM (SafeHtml renders its output). Beyond DOMPurify's defaults (no script, no event handlers, no
 * javascript: URLs) we drop everything that could act, restyle the app or spoof its UI: styles,
 * frames, forms, classes and ids; links open outside the app, images load lazily without a
 * referrer, players never preload. Relative URLs are resolved against the item's page first, so
 * they do not point at Tidings itself.
 */
import DOMPurify, { type Config } from 'dompurify';

export const FORBIDDEN_TAGS = [
  'script',
  'style',
  'link',
  'meta',
  'base',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'portal',
  'form',
  'input',
  'button',
  'select',
  'option',
  'textarea',
  'fieldset',
  'dialog',
  'template',
  'noscript',
] as const;

export const FORBIDDEN_ATTRIBUTES = [
  'style',
  'class',
  'id',
  'srcset',
  'ping',
  'autoplay',
  'background',
  'formaction',
  'action',
] as const;

/** Attributes whose relative URLs are resolved against the item's page. */
export const URL_ATTRIBUTES = ['href', 'src', 'poster', 'cite'] as const;

export const SANITIZE_CONFIG = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: [...FORBIDDEN_TAGS],
  FORBID_ATTR: [...FORBIDDEN_ATTRIBUTES],
  ALLOW_DATA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  // After resolution every useful URL is absolute; data: images are allowed separately by DOMPurify.
  ALLOWED_URI_REGEXP: /^(?:https?|mailto|tel):/i,
  RETURN_TRUSTED_TYPE: false,
} satisfies Config;

/** Absolute form of a URL found in feed HTML, or null when it cannot be made absolute. */
export function resolveUrl(raw: string, base: string | null): string | null {
  const value = raw.trim();
  if (!value) return null;
  try {
    return new URL(value, base ?? undefined).toString();
  } catch {
    return null;
  }
}

type Purifier = ReturnType<typeof DOMPurify>;

let purifier: Purifier | null | undefined;
let currentBase: string | null = null;

function getPurifier(): Purifier | null {
  if (purifier !== undefined) return purifier;
  // Our own instance, so these hooks never leak into another user of DOMPurify.
  const instance = typeof window === 'undefined' ? null : DOMPurify(window);
  if (!instance?.isSupported) {
    purifier = null;
    return purifier;
  }
  instance.addHook('uponSanitizeAttribute', (_node, data) => {
    if (
      (URL_ATTRIBUTES as readonly string[]).includes(data.attrName) &&
      !data.attrValue.startsWith('data:')
    ) {
      data.attrValue = resolveUrl(data.attrValue, currentBase) ?? '';
    }
  });
  instance.addHook('afterSanitizeAttributes', (node) => {
    const tag = node.nodeName;
    if (tag === 'A' || tag === 'AREA') {
      if (node.hasAttribute('href')) {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer');
      }
    } else if (tag === 'IMG') {
      node.setAttribute('loading', 'lazy');
      node.setAttribute('decoding', 'async');
      node.setAttribute('referrerpolicy', 'no-referrer');
    } else if (tag === 'AUDIO' || tag === 'VIDEO') {
      node.setAttribute('preload', 'none');
      node.setAttribute('controls', '');
    }
  });
  purifier = instance;
  return purifier;
}

/**
 * Safe HTML for `dangerouslySetInnerHTML`. Where DOMPurify cannot run (no DOM), it fails closed:
 * the input comes back escaped, as text.
 */
export function sanitizeHtml(html: string, baseUrl: string | null): string {
  const instance = getPurifier();
  if (!instance) return escapeHtml(html);
  currentBase = baseUrl;
  try {
    return instance.sanitize(html, SANITIZE_CONFIG) as string;
  } finally {
    currentBase = null;
  }
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Plain-text items (tweets, LifeLiner posts) keep their line breaks; HTML ones do not need them. */
export function looksLikeHtml(text: string): boolean {
  return /<[a-z!/][^>]*>|&[a-z#0-9]+;/i.test(text);
}
