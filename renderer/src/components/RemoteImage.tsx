import { useState } from 'react';
import type { ImagePolicy } from '../../../src/app/api';
import { decideImage } from '../lib/image-policy';

/**
 * A remote picture outside item HTML (thumbnails, podcast artwork, image enclosures), under the
 * same privacy setting as images inside the text: trackers never load, and under clickToLoad a
 * button stands in until pressed. Never sends a Referer.
 */
export function RemoteImage({
  src,
  alt,
  className,
  policy,
  allowed,
}: {
  src: string;
  alt: string;
  className?: string;
  policy: ImagePolicy;
  allowed: boolean;
}) {
  const [asked, setAsked] = useState(false);
  const decision = decideImage(policy, allowed, src, null, null);
  if (decision === 'block') return null;
  if (decision === 'ask' && !asked) {
    let host = '';
    try {
      host = new URL(src).hostname;
    } catch {
      // No host to name: the button still loads it.
    }
    return (
      <button
        type="button"
        className={`held-image ${className ?? ''}`}
        data-keep-unread
        onClick={() => setAsked(true)}
      >
        Load image{host ? ` from ${host}` : ''}
      </button>
    );
  }
  return (
    <img
      className={className}
      src={src}
      alt={alt}
      loading="lazy"
      decoding="async"
      referrerPolicy="no-referrer"
    />
  );
}
