/** A search past its deadline; search-records.ts answers it with 503. */
export class SearchDeadlineError extends Error {
  constructor() {
    super('search deadline passed');
    this.name = 'SearchDeadlineError';
  }
}

/** Uninterrupted work a search may do before it lets the process's other requests run. */
export const searchSliceMs = 4;

/**
 * The time a search may take, and how much of its process it may hold at once. The local gateway
 * (and sam local) serve every account from one process, so a search that matched a page in one
 * synchronous stretch held every other request of every account for as long.
 *
 * The search's loops (matching records and their token filters, keeping the page) ask `isDue()`
 * between two steps, one clock read; when it says so they `await pause()`, which yields to the event loop (setImmediate:
 * every other request's pending I/O and timers run first) and starts a new slice of `sliceMs`.
 * `pause()` throws once the deadline has passed (SearchDeadlineError) or the search was canceled,
 * so a search stops within one record of its deadline, not at its next page. `signal` is aborted at
 * the deadline (a timer), when the search fails, and when it ends (`end()`): the DynamoDB calls of
 * every shard chain take it, so none outlives the search.
 */
export class SearchBudget {
  private readonly controller = new AbortController();
  private readonly timer: ReturnType<typeof setTimeout> | undefined;
  private readonly now: () => number;
  private readonly sliceMs: number;
  private sliceStartMs: number;

  constructor(
    private readonly deadlineMs: number,
    options: { sliceMs?: number; now?: () => number } = {},
  ) {
    this.now = options.now ?? (() => performance.now());
    this.sliceMs = options.sliceMs ?? searchSliceMs;
    this.sliceStartMs = this.now();
    if (Number.isFinite(deadlineMs)) {
      this.timer = setTimeout(
        () => this.controller.abort(new SearchDeadlineError()),
        Math.max(0, deadlineMs - this.now()),
      );
      // The timer must not keep a process alive on its own (a CLI, a test).
      this.timer.unref?.();
    }
  }

  /** Cancels with the search: aborted at the deadline, on failure and at the end. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** True when the slice is used up (or the search is over): the caller should `await pause()` before more work. */
  isDue(): boolean {
    const now = this.now();
    return now - this.sliceStartMs >= this.sliceMs || now > this.deadlineMs || this.controller.signal.aborted;
  }

  /** Lets the other requests of the process run, then starts a new slice; throws when the search is over. */
  async pause(): Promise<void> {
    this.throwIfOver();
    await nextTurn();
    this.throwIfOver();
    this.sliceStartMs = this.now();
  }

  /** Throws SearchDeadlineError past the deadline (canceling what is in flight), or the reason the search was canceled. */
  throwIfOver(): void {
    const { signal } = this.controller;
    if (!signal.aborted && this.now() > this.deadlineMs) this.controller.abort(new SearchDeadlineError());
    signal.throwIfAborted();
  }

  /** Ends the search, however it went: cancels whatever is still in flight, and the deadline timer. */
  end(reason: unknown = Object.assign(new Error('search ended'), { name: 'AbortError' })): void {
    if (this.timer) clearTimeout(this.timer);
    if (!this.controller.signal.aborted) this.controller.abort(reason);
  }
}

/**
 * One turn of the event loop (setImmediate). Not node:timers/promises, whose module a function
 * would load at cold start for this one call.
 */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    setImmediate(resolve);
  });
}
