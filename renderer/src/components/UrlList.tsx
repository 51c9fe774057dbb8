/**
 * A list of web addresses the person edits in place: one row each (an address field, Remove),
 * and a button that adds an empty row. A row may carry more than its address (`before`: a ping
 * service's kind). Used by Your feed's hubs and the services told of each post.
 */
import type { ReactNode } from 'react';

export function UrlList<T>({
  items,
  urlOf,
  withUrl,
  onChange,
  newItem,
  itemName,
  addLabel,
  placeholder,
  before,
  urlTestId,
  addTestId,
}: {
  items: readonly T[];
  urlOf(item: T): string;
  /** The item with its address changed. */
  withUrl(item: T, url: string): T;
  onChange(items: T[]): void;
  /** The empty row "add" appends. */
  newItem(): T;
  /** The row's name for screen readers, from its index: "Hub 1". */
  itemName(index: number): string;
  addLabel: string;
  placeholder: string;
  /** More fields at the start of a row; `set` replaces the row's item. */
  before?(item: T, index: number, set: (item: T) => void): ReactNode;
  urlTestId?: string;
  addTestId?: string;
}) {
  const replace = (i: number, item: T) => onChange(items.map((x, j) => (j === i ? item : x)));
  return (
    <>
      {items.map((item, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place; the index is the row.
        <div className="settings-pair" key={i}>
          {before?.(item, i, (next) => replace(i, next))}
          <input
            type="url"
            aria-label={`${itemName(i)} address`}
            value={urlOf(item)}
            placeholder={placeholder}
            onChange={(e) => replace(i, withUrl(item, e.target.value))}
            data-testid={urlTestId}
          />
          <button
            type="button"
            className="link-button danger"
            aria-label={`Remove ${itemName(i).toLowerCase()}`}
            onClick={() => onChange(items.filter((_, j) => j !== i))}
          >
            Remove
          </button>
        </div>
      ))}
      <button
        type="button"
        className="link-button"
        onClick={() => onChange([...items, newItem()])}
        data-testid={addTestId}
      >
        {addLabel}
      </button>
    </>
  );
}
