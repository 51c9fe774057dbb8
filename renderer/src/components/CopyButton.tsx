/** Copies a URL; says "Copied" for a moment. Falls back to selecting the text where the clipboard is refused. */
import { useState } from 'react';

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [done, setDone] = useState<'copied' | 'failed' | null>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setDone('copied');
    } catch {
      setDone('failed');
    }
    setTimeout(() => setDone(null), 1500);
  }
  return (
    <button
      type="button"
      className="link-button copy-button"
      aria-label={`Copy ${label}`}
      onClick={copy}
      data-testid="copy-url"
    >
      {done === 'copied' ? 'Copied' : done === 'failed' ? 'Select and copy' : 'Copy'}
    </button>
  );
}
