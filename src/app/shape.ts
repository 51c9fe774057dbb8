/**
 * Shapes of values that cross a process boundary (the API's arguments), checked at run time with
 * a readable reason. A Shape<T> is invariant in T, so a table of shapes typed from the API's own
 * types (api-args.ts) does not compile unless every shape says exactly what the type says.
 */
export interface Shape<T> {
  /** Why `value` is not a T ("feedId must be a number, not text"), or null when it is one. */
  problem(value: unknown, at: string): string | null;
  /** Phantom, never set: T in and out makes Shape invariant. */
  readonly _type?: (t: T) => T;
}

/** Any shape, whatever its T (Shape itself is invariant, so Shape<unknown> would not do). */
export interface SomeShape {
  problem(value: unknown, at: string): string | null;
}

export type Infer<S> = S extends Shape<infer T> ? T : never;

const shape = <T>(problem: Shape<T>['problem']): Shape<T> => ({ problem });

/** A value quoted back in a reason, cut short: the reason goes back to the caller. */
const clip = (v: string) => (v.length > 60 ? `${v.slice(0, 60)}…` : v);

/** "a number", "text", "a list", "null"... for the reason's second half. */
export function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'nothing';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'string') return 'text';
  if (typeof v === 'number') return Number.isFinite(v) ? 'a number' : String(v);
  if (typeof v === 'boolean') return `${v}`;
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

const expect = (what: string) => (v: unknown, at: string) => `${at} must be ${what}, not ${kindOf(v)}`;

/**
 * Text an argument may hold unless its command says otherwise: far more than any name, address,
 * query or post needs, and little enough that no command spends long on it (a 10 MB address took
 * the app 3.8 s to refuse). The commands that take documents (OPML, a file) name their own cap.
 */
export const MAX_TEXT_CHARS = 64 * 1024;
/** Items in a list argument (ids to mark read...): a whole river's worth. */
export const MAX_LIST_ITEMS = 10_000;

/** Text of at most `max` characters. */
export const textUpTo = (max: number): Shape<string> =>
  shape((v, at) => {
    if (typeof v !== 'string') return expect('text')(v, at);
    return v.length > max ? `${at} must be text of at most ${max} characters, not ${v.length}` : null;
  });

export const text: Shape<string> = textUpTo(MAX_TEXT_CHARS);
export const num: Shape<number> = shape((v, at) =>
  typeof v === 'number' && Number.isFinite(v) ? null : expect('a number')(v, at),
);
export const bool: Shape<boolean> = shape((v, at) =>
  typeof v === 'boolean' ? null : expect('true or false')(v, at),
);

export const nullable = <T>(s: Shape<T>): Shape<T | null> =>
  shape((v, at) => (v === null ? null : s.problem(v, at)));

/** May be absent (an optional argument or field). */
export const optional = <T>(s: Shape<T>): Shape<T | undefined> =>
  shape((v, at) => (v === undefined ? null : s.problem(v, at)));

export const list = <T>(s: Shape<T>, max = MAX_LIST_ITEMS): Shape<T[]> =>
  shape((v, at) => {
    if (!Array.isArray(v)) return expect('a list')(v, at);
    if (v.length > max) return `${at} must be a list of at most ${max} items, not ${v.length}`;
    for (let i = 0; i < v.length; i++) {
      const p = s.problem(v[i], `${at}[${i}]`);
      if (p) return p;
    }
    return null;
  });

export const literal = <const L extends readonly (string | number | boolean)[]>(
  ...values: L
): Shape<L[number]> =>
  shape((v, at) =>
    values.includes(v as L[number])
      ? null
      : `${at} must be ${values.map((x) => JSON.stringify(x)).join(' or ')}, not ${typeof v === 'string' ? JSON.stringify(clip(v)) : kindOf(v)}`,
  );

/**
 * One of several shapes. When none fits, the reason is the one that got furthest into the value
 * (a variant whose kind matched names its wrong field), and alternatives failing at the same
 * place are named together ("kind must be "all" or "feed", not "planet"").
 */
export const oneOf = <const S extends readonly SomeShape[]>(...shapes: S): Shape<Infer<S[number]>> =>
  shape((v, at) => {
    const problems: string[] = [];
    for (const s of shapes) {
      const p = s.problem(v, at);
      if (p === null) return null;
      problems.push(p);
    }
    const parsed = problems.map((p) => /^(.*) must be (.*), not (.*)$/.exec(p));
    const depth = (m: RegExpExecArray | null) => (m ? m[1]!.length : -1);
    const deepest = Math.max(...parsed.map(depth));
    const there = parsed.filter((m) => depth(m) === deepest) as RegExpExecArray[];
    if (there.length === 0) return problems[0] ?? null;
    const wanted = [...new Set(there.map((m) => m[2]!))].join(' or ');
    return `${there[0]![1]} must be ${wanted}, not ${there[0]![3]}`;
  });

/**
 * A plain object of type T: one shape for every field T has (the compiler wants them all, each
 * exactly typed); a field that may be undefined may be absent. Fields T does not name are left
 * alone (the core refuses unknown keys where it matters, as the publish settings do).
 */
export const object = <T extends object>(fields: { [K in keyof T]-?: Shape<T[K]> }): Shape<T> =>
  shape((v, at) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return expect('an object')(v, at);
    for (const [key, s] of Object.entries(fields) as [string, SomeShape][]) {
      const p = s.problem((v as Record<string, unknown>)[key], `${at}.${key}`);
      if (p) return p;
    }
    return null;
  });

/** Any plain object typed T: for patches whose every field the core itself checks by name. */
export const checkedByCore = <T extends object>(): Shape<T> =>
  shape((v, at) =>
    typeof v === 'object' && v !== null && !Array.isArray(v) ? null : expect('an object')(v, at),
  );

/** A shape that refers to itself (an outline of posts). */
export const lazy = <T>(get: () => Shape<T>): Shape<T> => shape((v, at) => get().problem(v, at));
