/** The search syntax, one click away from the results ("operators help"). */
export function SearchHelp() {
  return (
    <details className="search-help" data-testid="search-help">
      <summary>Search syntax</summary>
      <dl>
        <dt>
          <code>harbour boat</code>
        </dt>
        <dd>items with both words</dd>
        <dt>
          <code>harbour OR port</code>
        </dt>
        <dd>either word</dd>
        <dt>
          <code>-sport</code>
        </dt>
        <dd>without that word</dd>
        <dt>
          <code>"exact phrase"</code>
        </dt>
        <dd>the words together, in that order</dd>
        <dt>
          <code>comput*</code>
        </dt>
        <dd>words starting with it</dd>
      </dl>
    </details>
  );
}
