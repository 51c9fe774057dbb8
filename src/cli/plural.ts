/** "1 item", "2 items", "1,000 items": counts in the CLI's sentences. */
export function countOf(n: number, singular: string, pluralForm = `${singular}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? singular : pluralForm}`;
}
