/** Enclosure sizes as people read them: "12.3 MB"; null when the feed did not say (or said 0). */
export function formatMegabytes(bytes: number | null): string | null {
  if (bytes === null || !Number.isFinite(bytes) || bytes <= 0) return null;
  const mb = bytes / 1_000_000;
  if (mb < 0.1) return '< 0.1 MB';
  return `${mb < 10 ? mb.toFixed(1) : Math.round(mb)} MB`;
}

export type MediaKind = 'audio' | 'video' | null;

/** Which player an enclosure gets, from its MIME type (or, without one, its file extension). */
export function mediaKind(type: string | null, url: string): MediaKind {
  const t = type?.toLowerCase() ?? '';
  if (t.startsWith('audio/')) return 'audio';
  if (t.startsWith('video/')) return 'video';
  if (t) return null;
  const path = url.split(/[?#]/)[0]!.toLowerCase();
  if (/\.(mp3|m4a|aac|ogg|oga|opus|wav|flac)$/.test(path)) return 'audio';
  if (/\.(mp4|m4v|webm|mov|ogv)$/.test(path)) return 'video';
  return null;
}

/** Only web URLs become links, players or images; anything else (javascript:, file:) is text. */
export function isWebUrl(url: string | null): url is string {
  if (!url) return false;
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** The file name at the end of an enclosure URL, for its link text. */
export function fileName(url: string): string {
  try {
    const last = new URL(url).pathname.split('/').filter(Boolean).pop();
    return last ? decodeURIComponent(last) : url;
  } catch {
    return url;
  }
}
