/** A small typed listener registry shared by both transports and the connection state. */
export class Listeners<T> {
  private readonly set = new Set<(value: T) => void>();

  add(listener: (value: T) => void): () => void {
    this.set.add(listener);
    return () => {
      this.set.delete(listener);
    };
  }

  emit(value: T): void {
    for (const listener of [...this.set]) {
      try {
        listener(value);
      } catch (err) {
        // One broken listener must not starve the others of events.
        console.error(err);
      }
    }
  }

  clear(): void {
    this.set.clear();
  }
}

/** Listeners keyed by event name, for `client.on(event, listener)`. */
export class EventListeners {
  private readonly byName = new Map<string, Listeners<unknown>>();

  add(name: string, listener: (payload: unknown) => void): () => void {
    let entry = this.byName.get(name);
    if (!entry) {
      entry = new Listeners<unknown>();
      this.byName.set(name, entry);
    }
    return entry.add(listener);
  }

  emit(name: string, payload: unknown): void {
    this.byName.get(name)?.emit(payload);
  }

  clear(): void {
    this.byName.clear();
  }
}
