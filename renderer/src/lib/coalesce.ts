/**
 * One run in flight and at most one after it: calls made while `run` is going collapse into a
 * single further run (bursts of 'feeds.changed' / 'folders.changed' from an OPML import become
 * two requests, and the last one reads the final state). Every caller gets the promise that
 * settles when the runs it is covered by are done. `run` reports its own errors.
 */
export function coalesce(run: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let again = false;
  return () => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await run();
        } while (again);
      } finally {
        running = null;
      }
    })();
    return running;
  };
}
