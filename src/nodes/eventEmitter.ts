// A minimal event emitter for the pure modules: its `event` has the shape of `vscode.Event`, so
// views and panels subscribe to pure state as they would to VS Code's, without importing `vscode`.

export interface Subscription {
  dispose(): void;
}

export type EventListen<T> = (listener: (e: T) => unknown, thisArgs?: unknown, disposables?: { dispose(): unknown }[]) => Subscription;

export class EventEmitter<T> {
  private listeners: ((e: T) => unknown)[] = [];

  readonly event: EventListen<T> = (listener, thisArgs, disposables) => {
    const bound = thisArgs === undefined ? listener : listener.bind(thisArgs);
    this.listeners.push(bound);
    const subscription = { dispose: () => void (this.listeners = this.listeners.filter((l) => l !== bound)) };
    disposables?.push(subscription);
    return subscription;
  };

  /** Calls every listener; one that throws does not keep the others from hearing it. */
  fire(e: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(e);
      } catch (err) {
        console.error(err);
      }
    }
  }

  dispose(): void {
    this.listeners = [];
  }
}
