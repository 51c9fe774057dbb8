import { memo } from 'react';
import { useApp } from '../../store/context';
import { MarkReadMenu } from './MarkReadMenu';

/**
 * Marking read (MarkReadMenu), how the river is laid out (river, titles only, reading pane) and in
 * which order; remembered. Memoised: the river re-renders with its groups, these need not.
 */
export const RiverOptions = memo(function RiverOptions() {
  const sort = useApp((s) => s.filter.sort);
  const view = useApp((s) => s.view);
  const setFilter = useApp((s) => s.setFilter);
  const setView = useApp((s) => s.setView);
  return (
    <div className="river-options">
      <MarkReadMenu />
      <Choice
        id="river-view"
        label="View"
        value={view}
        onValue={setView}
        choices={[
          ['river', 'River'],
          ['compact', 'Titles only'],
          ['pane', 'Reading pane'],
        ]}
      />
      <Choice
        id="river-sort"
        label="Order"
        value={sort}
        onValue={(sort) => setFilter({ sort })}
        choices={[
          ['newest', 'Newest first'],
          ['oldest', 'Oldest first'],
        ]}
      />
    </div>
  );
});

/** A select named by a label only screen readers read (the toolbar has no room for its words); `id` is its test id too. */
function Choice<T extends string>({
  id,
  label,
  value,
  onValue,
  choices,
}: {
  id: string;
  label: string;
  value: T;
  onValue(value: T): void;
  choices: [T, string][];
}) {
  return (
    <>
      <label className="visually-hidden" htmlFor={id}>
        {label}
      </label>
      <select id={id} value={value} onChange={(e) => onValue(e.target.value as T)} data-testid={id}>
        {choices.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </>
  );
}
