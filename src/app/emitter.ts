/** A typed event emitter whose `on` returns the unsubscribe function (STYLE sheet rule 3). */
export class Emitter<Events extends object> {
  private listeners = new Map<keyof Events, Set<(payload: never) => void>>();

  on<E extends keyof Events>(event: E, listener: (payload: Events[E]) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener as (payload: never) => void);
    return () => {
      set.delete(listener as (payload: never) => void);
    };
  }

  /** Listens to every event (transports forward them all). */
  onAny(listener: <E extends keyof Events>(event: E, payload: Events[E]) => void): () => void {
    this.anyListeners.add(listener);
    return () => {
      this.anyListeners.delete(listener);
    };
  }

  emit<E extends keyof Events>(event: E, payload: Events[E]): void {
    for (const listener of this.listeners.get(event) ?? []) {
      try {
        (listener as (p: Events[E]) => void)(payload);
      } catch {
        // A broken listener must not stop the others, nor the core.
      }
    }
    for (const listener of this.anyListeners) {
      try {
        listener(event, payload);
      } catch {
        // Same as above.
      }
    }
  }

  private anyListeners = new Set<<E extends keyof Events>(event: E, payload: Events[E]) => void>();
}
