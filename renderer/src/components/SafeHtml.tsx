import { useMemo } from 'react';
import { looksLikeHtml, sanitizeHtml } from '../lib/sanitize';

/**
 * The one place feed HTML enters the DOM, and only through DOMPurify (lib/sanitize). Plain-text
 * posts keep their line breaks.
 */
export function SafeHtml({
  html,
  baseUrl,
  className,
}: {
  html: string;
  baseUrl: string | null;
  className?: string;
}) {
  const clean = useMemo(() => sanitizeHtml(html, baseUrl), [html, baseUrl]);
  const plain = !looksLikeHtml(html);
  return (
    <div
      className={plain ? `${className ?? ''} plain-text` : className}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the string comes from sanitizeHtml (DOMPurify) only.
      dangerouslySetInnerHTML={{ __html: clean }}
    />
  );
}
