/**
 * Sub-items of a post: an outline to any depth (written as rssCloud:item elements by the core).
 * Each row is a text field with its own counter; plain buttons add a sub-item under a row or
 * remove it, so the outline is built without drag gestures and stays keyboard-reachable.
 */
import { countGraphemes } from '../../../../src/publish/graphemes';
import { type ChildDraft, newChild, updateChildren } from './draft';

interface Props {
  items: ChildDraft[];
  limit: number;
  onChange(items: ChildDraft[]): void;
}

export function OutlineEditor({ items, limit, onChange }: Props) {
  const edit = (path: number[], change: (list: ChildDraft[]) => ChildDraft[]) =>
    onChange(updateChildren(items, path, change));
  return (
    <div className="outline-editor" data-testid="composer-children">
      <OutlineLevel items={items} path={[]} limit={limit} edit={edit} />
      <button
        type="button"
        className="link-button"
        onClick={() => edit([], (list) => [...list, newChild()])}
        data-testid="composer-add-child"
      >
        + Sub-item
      </button>
    </div>
  );
}

function OutlineLevel({
  items,
  path,
  limit,
  edit,
}: {
  items: ChildDraft[];
  path: number[];
  limit: number;
  edit(path: number[], change: (list: ChildDraft[]) => ChildDraft[]): void;
}) {
  if (items.length === 0) return null;
  return (
    <ul className="outline-level">
      {items.map((item, i) => {
        const n = countGraphemes(item.text);
        const label = [...path, i].map((x) => x + 1).join('.');
        return (
          <li key={item.key}>
            <div className="outline-row">
              <input
                type="text"
                value={item.text}
                aria-label={`Sub-item ${label}`}
                placeholder={`Sub-item ${label}`}
                onChange={(e) =>
                  edit(path, (list) => list.map((c, j) => (j === i ? { ...c, text: e.target.value } : c)))
                }
                data-testid="composer-child-input"
              />
              <span className={n > limit ? 'char-count over' : 'char-count'} aria-hidden="true">
                {limit - n}
              </span>
              <button
                type="button"
                className="link-button"
                title="Add a sub-item under this one"
                aria-label={`Add a sub-item under ${label}`}
                onClick={() =>
                  edit(path, (list) =>
                    list.map((c, j) => (j === i ? { ...c, children: [...c.children, newChild()] } : c)),
                  )
                }
              >
                + under
              </button>
              <button
                type="button"
                className="link-button danger"
                aria-label={`Remove sub-item ${label}`}
                onClick={() => edit(path, (list) => list.filter((_, j) => j !== i))}
              >
                Remove
              </button>
            </div>
            <OutlineLevel items={item.children} path={[...path, i]} limit={limit} edit={edit} />
          </li>
        );
      })}
    </ul>
  );
}
