import { useEffect, useRef, useState } from 'react';

/**
 * A small menu's open state (an item's ⋯ menu, the river bar's Mark read): a press anywhere
 * outside `box` closes it, and `close(true)` puts focus back on the button that opened it
 * (found in `box` by `buttonSelector`).
 */
export function usePopup<T extends HTMLElement>(buttonSelector: string) {
  const [open, setOpen] = useState(false);
  const box = useRef<T>(null);
  useEffect(() => {
    if (!open) return;
    const away = (event: Event) => {
      if (!box.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', away, true);
    return () => document.removeEventListener('pointerdown', away, true);
  }, [open]);
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) box.current?.querySelector<HTMLElement>(buttonSelector)?.focus();
  };
  return { open, setOpen, close, box };
}
