/**
 * Copy link and share (issue 35): the system's share sheet where the browser offers one
 * (navigator.share: Chromium on Windows, ChromeOS and Android, Safari), else the link is copied.
 * Electron offers no share sheet on Linux and Windows, so there the item's menu copies.
 */

export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard API (an insecure origin, a refused permission): the old way, from a selection.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    } finally {
      area.remove();
    }
  }
}

export function canShare(): boolean {
  return typeof navigator !== 'undefined' && typeof navigator.share === 'function';
}

export type ShareOutcome = 'shared' | 'copied' | 'cancelled' | 'failed';

export async function shareLink(title: string, url: string): Promise<ShareOutcome> {
  if (canShare()) {
    try {
      await navigator.share({ title, url });
      return 'shared';
    } catch (err) {
      if ((err as { name?: string }).name === 'AbortError') return 'cancelled';
      // A share sheet that failed to open: the link still goes somewhere useful.
    }
  }
  return (await copyText(url)) ? 'copied' : 'failed';
}
