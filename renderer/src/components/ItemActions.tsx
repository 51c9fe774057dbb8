import { useEffect, useId, useState } from 'react';
import type { RiverItem } from '../../../src/app/api';
import { isWebUrl } from '../lib/format';
import { canShare, copyText, shareLink } from '../lib/share';
import { useApp } from '../store/context';
import { usePopup } from './use-popup';

/**
 * An item's own menu (issue 35): copy its link, share it, mark everything above it read, and for
 * episodes played / unplayed. One button per card; the menu is only built when opened, so a river
 * of hundreds of cards carries one button each. Escape or a click elsewhere closes it.
 */
export function ItemActions({ item, name, inRiver }: { item: RiverItem; name: string; inRiver: boolean }) {
  const { open, setOpen, close, box } = usePopup<HTMLDivElement>('.item-actions-button');
  const [said, setSaid] = useState('');
  const menuId = useId();
  const markAboveRead = useApp((s) => s.markAboveRead);
  const setPlayed = useApp((s) => s.setPlayed);
  const link = isWebUrl(item.link) ? item.link : null;
  const episode =
    item.enclosures.some((e) => /^(audio|video)\//i.test(e.type ?? '')) || item.playback !== null;

  useEffect(() => {
    if (!said) return;
    const timer = setTimeout(() => setSaid(''), 4000);
    return () => clearTimeout(timer);
  }, [said]);

  const run = (action: () => Promise<void> | void) => () => {
    close(true);
    void action();
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Escape closes the menu; the buttons inside are the controls.
    <div
      className="item-actions"
      ref={box}
      data-keep-unread
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.preventDefault();
          e.stopPropagation();
          close(true);
        }
      }}
    >
      <button
        type="button"
        className="item-actions-button icon-button"
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={`More for “${name}”`}
        title="Copy link, share, mark above as read"
        data-testid="item-actions"
        onClick={() => setOpen(!open)}
      >
        <span aria-hidden="true">⋯</span>
      </button>
      {open && (
        <ul className="item-actions-menu" id={menuId} data-testid="item-actions-menu">
          {link && (
            <li>
              <button
                type="button"
                data-testid="item-copy-link"
                onClick={run(async () =>
                  setSaid((await copyText(link)) ? 'Link copied' : 'Could not copy the link'),
                )}
              >
                Copy link
              </button>
            </li>
          )}
          {link && canShare() && (
            <li>
              <button
                type="button"
                data-testid="item-share"
                onClick={run(async () => {
                  const outcome = await shareLink(name, link);
                  if (outcome === 'copied') setSaid('Link copied');
                  else if (outcome === 'failed') setSaid('Could not share the link');
                })}
              >
                Share…
              </button>
            </li>
          )}
          {inRiver && (
            <li>
              <button type="button" data-testid="item-mark-above" onClick={run(() => markAboveRead(item.id))}>
                Mark all above as read
              </button>
            </li>
          )}
          {episode && (
            <li>
              <button
                type="button"
                data-testid="item-played"
                onClick={run(() => setPlayed(item.id, !item.playback?.played))}
              >
                {item.playback?.played ? 'Mark unplayed' : 'Mark played'}
              </button>
            </li>
          )}
        </ul>
      )}
      <span className="item-actions-said" role="status" data-testid="item-actions-said">
        {said}
      </span>
    </div>
  );
}
