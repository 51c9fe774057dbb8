import { formatAbsolute, formatRelative } from '../lib/relative-time';
import { useNow } from './use-now';

/** "3 min ago", with the full date and time on hover. */
export function RelativeTime({ iso, className }: { iso: string | null; className?: string }) {
  const now = useNow();
  if (!iso) return null;
  return (
    <time className={className} dateTime={iso} title={formatAbsolute(iso)}>
      {formatRelative(iso, now)}
    </time>
  );
}
