/**
 * The cap on parse time (ParseOptions.maxParseMs). Parsing is synchronous, so the parser checks
 * the clock at its loops' natural boundaries and gives up with `feed.tooSlow` once past it.
 */

export class ParseTimeout extends Error {
  readonly limitMs: number;
  constructor(limitMs: number) {
    super(`Parsing took longer than ${limitMs} ms.`);
    this.name = 'ParseTimeout';
    this.limitMs = limitMs;
  }
}

export class Deadline {
  readonly limitMs: number;
  private readonly endsAt: number;

  /** `limitMs` of Infinity never expires; 0 expires at the first check. */
  constructor(limitMs: number) {
    this.limitMs = limitMs;
    this.endsAt = performance.now() + limitMs;
  }

  /** Throws ParseTimeout once the time is up. */
  check(): void {
    if (performance.now() >= this.endsAt) throw new ParseTimeout(this.limitMs);
  }
}
