/**
 * Feed HTML is hostile until DOMPurify says otherwise. This is the only way item text reaches the
 * DOM (SafeHtml renders its output). Beyond DOMPurify's defaults (no script, no event handlers, no
 * javascript: URLs) we drop everything that could act, restyle the app or spoof its UI: styles,
 * frames, forms, classes and ids; links open outside the app, images load lazily without a
 * referrer, players never preload. Relative URLs are resolved against the item's page first, so
 * they do not point at Tidings itself.
 */
import DOMPurify, { type Config } from 'dompurify';
import type { ImagePolicy } from '../../../src/app/api';
import { DEFAULT_IMAGE_POLICY, decideImage } from './image-policy';
import { linkifyPieces } from './linkify';
import { neutralizeHandlers } from './neutralize-handlers';

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
  // DOMPurify checks every attribute that is not "URI-safe" against this, not only URLs: a value
  // with a scheme must be http(s)/mailto/tel; a value without one (width="1", colspan="2") is a
  // plain value. (An anchored scheme-only pattern dropped width/height, so 1x1 pixels went
  // unrecognised.) href/src/poster/cite are resolved to absolute URLs before this check runs.
  ALLOWED_URI_REGEXP: /^(?:(?:https?|mailto|tel):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i,
  RETURN_TRUSTED_TYPE: false,
  // The inert document's body comes back, so images, links and the leading picture are settled
  // there (nothing loads in an inert document) before the string reaches the page.
  RETURN_DOM: true,
} satisfies Config;

export interface SanitizeOptions {
  /** Remote images: load, block trackers (default), or click to load. */
  images?: ImagePolicy;
  /** The feed is on the images allow list (loads even under clickToLoad). */
  allowImages?: boolean;
}

/** Set on images held back under clickToLoad; SafeHtml loads them on click or Enter. */
export const HELD_IMAGE_ATTR = 'data-held-src';

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
  // Set once: a config passed to each sanitize() call is parsed again every time (bench:river).
  instance.setConfig(SANITIZE_CONFIG);
  purifier = instance;
  return purifier;
}

/**
 * Safe HTML for `dangerouslySetInnerHTML`. Where DOMPurify cannot run (no DOM), it fails closed:
 * the input comes back escaped, as text.
 */
/**
 * The last answers, by input: a virtualised river mounts the same items again and again as it
 * scrolls back and forth, and each sanitising parses the HTML afresh. Bounded, oldest out first.
 */
const CACHE_SIZE = 400;
const cache = new Map<string, string>();

export function sanitizeHtml(html: string, baseUrl: string | null, options: SanitizeOptions = {}): string {
  const instance = getPurifier();
  if (!instance) return escapeHtml(html);
  const key = `${options.images ?? ''}|${options.allowImages ? 1 : 0}|${baseUrl ?? ''}|${html}`;
  const hit = cache.get(key);
  if (hit !== undefined) {
    // Most recently used goes to the end.
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const clean = sanitizeFresh(instance, html, baseUrl, options);
  cache.set(key, clean);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return clean;
}

function sanitizeFresh(
  instance: Purifier,
  html: string,
  baseUrl: string | null,
  options: SanitizeOptions,
): string {
  currentBase = baseUrl;
  try {
    const body = instance.sanitize(neutralizeHandlers(html)) as unknown as HTMLElement;
    settleImages(body, options);
    linkifyText(body);
    markLeadImage(body);
    return body.innerHTML;
  } finally {
    currentBase = null;
  }
}

/** Trackers go, held images wait for a click (their address kept aside), the rest load lazily. */
function settleImages(root: HTMLElement, options: SanitizeOptions): void {
  const policy = options.images ?? DEFAULT_IMAGE_POLICY;
  for (const img of [...root.querySelectorAll('img')]) {
    const src = img.getAttribute('src') ?? '';
    if (!src) {
      img.remove();
      continue;
    }
    const decision = decideImage(
      policy,
      options.allowImages ?? false,
      src,
      img.getAttribute('width'),
      img.getAttribute('height'),
    );
    // Feeds rarely say what a picture shows; without alt a screen reader reads out its address.
    if (!img.hasAttribute('alt')) img.setAttribute('alt', '');
    if (decision === 'block') img.remove();
    else if (decision === 'ask') {
      let host = '';
      try {
        host = new URL(src).hostname;
      } catch {
        // An unparseable address still waits for a click; the label just has no host.
      }
      const alt = img.getAttribute('alt')?.trim();
      img.removeAttribute('src');
      img.setAttribute(HELD_IMAGE_ATTR, src);
      img.setAttribute('role', 'button');
      img.setAttribute('tabindex', '0');
      img.setAttribute('alt', `${alt ? `${alt}: ` : ''}image${host ? ` from ${host}` : ''}, click to load`);
    }
  }
}

/** Plain-text URLs become links (never inside an existing link, or in code). */
function linkifyText(root: HTMLElement): void {
  const doc = root.ownerDocument;
  const walker = doc.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */);
  const texts: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node as Text;
    if (!/https?:\/\/|www\./i.test(text.data)) continue;
    if (text.parentElement?.closest('a, pre, code')) continue;
    texts.push(text);
  }
  for (const text of texts) {
    const pieces = linkifyPieces(text.data);
    if (pieces.length === 1 && !('url' in pieces[0]!)) continue;
    const fragment = doc.createDocumentFragment();
    for (const piece of pieces) {
      if ('url' in piece) {
        const a = doc.createElement('a');
        a.setAttribute('href', piece.url);
        a.setAttribute('target', '_blank');
        a.setAttribute('rel', 'noopener noreferrer');
        a.textContent = piece.text;
        fragment.append(a);
      } else fragment.append(piece.text);
    }
    text.replaceWith(fragment);
  }
}

/**
 * An item whose text starts with a picture (many blogs, every Instagram-style feed) showed only
 * the picture when folded: the first image before any text is marked so the stylesheet floats it
 * beside the text instead.
 */
function markLeadImage(root: HTMLElement): void {
  const walker = root.ownerDocument.createTreeWalker(root, 1 | 4 /* elements and text */);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.nodeType === 3) {
      if ((node as Text).data.trim()) return;
      continue;
    }
    const el = node as Element;
    if (el.tagName === 'IMG') {
      el.setAttribute('data-lead', '');
      return;
    }
    if (el.tagName === 'VIDEO' || el.tagName === 'AUDIO' || el.tagName === 'TABLE') return;
  }
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Plain-text items (tweets, LifeLiner posts) keep their line breaks; HTML ones do not need them. */
export function looksLikeHtml(text: string): boolean {
  return /<[a-z!/][^>]*>|&[a-z#0-9]+;/i.test(text);
}
