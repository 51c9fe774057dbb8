import { useId, useState } from 'react';
import type { OutlineItem } from '../../../src/app/api';
import { isWebUrl } from '../lib/format';
import { SafeHtml } from './SafeHtml';

/**
 * rssCloud outlines (rssCloud:item, source:outline): items inside an item, to any depth. Each
 * level with children folds, with aria-expanded on its toggle; the first level starts open.
 */
export function Outline({
  items,
  baseUrl,
  depth = 0,
}: {
  items: OutlineItem[];
  baseUrl: string | null;
  depth?: number;
}) {
  if (items.length === 0) return null;
  return (
    <ul className="outline" data-testid={depth === 0 ? 'item-outline' : undefined}>
      {items.map((child, i) => (
        // Outline nodes have no ids of their own; their place is their identity.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above.
        <OutlineNode key={i} node={child} baseUrl={baseUrl} depth={depth} />
      ))}
    </ul>
  );
}

function OutlineNode({ node, baseUrl, depth }: { node: OutlineItem; baseUrl: string | null; depth: number }) {
  const [open, setOpen] = useState(depth === 0);
  const id = useId();
  const text = node.title?.trim() || null;
  const body = node.content?.trim() || node.summary?.trim() || null;
  const link = isWebUrl(node.link) ? node.link : null;
  const hasChildren = node.children.length > 0;
  const label = text ?? (body ? null : '(untitled)');
  return (
    <li className="outline-node">
      <div className="outline-line">
        {hasChildren ? (
          <button
            type="button"
            className="outline-toggle"
            data-keep-unread
            aria-expanded={open}
            aria-controls={id}
            aria-label={open ? 'Collapse' : 'Expand'}
            onClick={() => setOpen(!open)}
          >
            {open ? '▾' : '▸'}
          </button>
        ) : (
          <span className="outline-bullet" aria-hidden="true">
            •
          </span>
        )}
        <div className="outline-text">
          {label &&
            (link ? (
              <a href={link} target="_blank" rel="noopener noreferrer">
                {label}
              </a>
            ) : (
              <span>{label}</span>
            ))}
          {body && <SafeHtml html={body} baseUrl={link ?? baseUrl} className="outline-body" />}
        </div>
      </div>
      {hasChildren && open && (
        <div id={id}>
          <Outline items={node.children} baseUrl={link ?? baseUrl} depth={depth + 1} />
        </div>
      )}
    </li>
  );
}
