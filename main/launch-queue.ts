/**
 * Single-instance hand-off: requests from the first launch, from a second launch's argv
 * (`second-instance`) and from macOS's open-url/open-file wait here until the window can show
 * them, then go to it in order. A second launch also brings the window forward, with or without
 * requests: launching the app again means "show me Tidings".
 */
import { type LaunchRequest, parseLaunchArgs } from './launch-args.ts';

export interface LaunchQueueDeps {
  /** Shows a request in the window (a confirmation, never a silent subscribe). */
  deliver(request: LaunchRequest): void;
  /** Shows, restores and focuses the window (creating it if it was closed). */
  focus(): void;
  /** argv entries that are the program itself (see ParseOptions.skip). */
  skip: number;
}

export interface LaunchQueue {
  /** Requests from this process's own command line (the first launch). */
  fromOwnArgv(argv: readonly string[], cwd: string): void;
  /** app 'second-instance': another launch handed over its argv and working directory. */
  secondInstance(argv: readonly string[], cwd: string): void;
  /** macOS open-url / open-file, or anything already parsed. */
  add(requests: readonly LaunchRequest[], focus?: boolean): void;
  /** The window can take requests now (its page has loaded): pending ones go out. */
  ready(): void;
  /** The window went away (closed, reloading): hold requests again until ready(). */
  notReady(): void;
  pending(): readonly LaunchRequest[];
}

export function createLaunchQueue(deps: LaunchQueueDeps): LaunchQueue {
  const waiting: LaunchRequest[] = [];
  let isReady = false;

  const flush = () => {
    while (isReady && waiting.length > 0) deps.deliver(waiting.shift()!);
  };
  const add = (requests: readonly LaunchRequest[], focus = true) => {
    waiting.push(...requests);
    if (focus) deps.focus();
    flush();
  };

  return {
    fromOwnArgv(argv, cwd) {
      // No focus call: the first launch opens its window anyway.
      add(parseLaunchArgs(argv, { cwd, skip: deps.skip }), false);
    },
    secondInstance(argv, cwd) {
      add(parseLaunchArgs(argv, { cwd, skip: deps.skip }), true);
    },
    add,
    ready() {
      isReady = true;
      flush();
    },
    notReady() {
      isReady = false;
    },
    pending: () => [...waiting],
  };
}
