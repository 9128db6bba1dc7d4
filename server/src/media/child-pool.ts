// A bounded, fair queue for heavy child work (clip transcodes, picture downscales): at most `slots` items
// run at once in this process, at most one per account, and accounts take turns (round robin), so one
// account's twenty uploads hold another account's one upload for at most one item's time. The items
// themselves run as child processes under a memory limit (limited-child.ts); this module only schedules.

export interface ChildPoolOptions {
  /** Items running at once in this instance. */
  slots: number;
}

interface Waiting {
  start: () => void;
}

export class ChildPool {
  private readonly slots: number;
  private running = 0;
  /** Accounts with an item running now. */
  private readonly busy = new Set<string>();
  /** Each account's waiting items in arrival order; the map's order is the round-robin turn order. */
  private readonly queues = new Map<string, Waiting[]>();

  constructor(options: ChildPoolOptions) {
    if (!Number.isInteger(options.slots) || options.slots < 1)
      throw new Error(`a child pool needs at least one slot (got ${options.slots})`);
    this.slots = options.slots;
  }

  /** Items running now, and waiting (for a report or a "waiting for N ahead" message). */
  get stats(): { running: number; waiting: number } {
    let waiting = 0;
    for (const queue of this.queues.values()) waiting += queue.length;
    return { running: this.running, waiting };
  }

  /** Runs `work` when a slot is free and `account` has nothing else running; answers what it answers. */
  run<T>(account: string, work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.running += 1;
        this.busy.add(account);
        work()
          .then(resolve, reject)
          .finally(() => {
            this.running -= 1;
            this.busy.delete(account);
            // Its next item waits behind the accounts that waited while this one ran.
            const waiting = this.queues.get(account);
            if (waiting) {
              this.queues.delete(account);
              this.queues.set(account, waiting);
            }
            this.startNext();
          });
      };
      const queue = this.queues.get(account);
      if (queue) queue.push({ start });
      else this.queues.set(account, [{ start }]);
      this.startNext();
    });
  }

  /** Starts waiting items while slots are free: the first account in turn order with nothing running. */
  private startNext(): void {
    while (this.running < this.slots) {
      const next = [...this.queues.keys()].find((account) => !this.busy.has(account));
      if (next === undefined) return;
      const queue = this.queues.get(next)!;
      const item = queue.shift()!;
      // The account goes to the back of the turn order (or leaves it when it has nothing more waiting).
      this.queues.delete(next);
      if (queue.length) this.queues.set(next, queue);
      item.start();
    }
  }
}
