// When to restart a crashed language server. Pure logic (no `vscode` import).
//
// A crash is "quick" when the server ran for less than `stableAfterMs`. Quick crashes in a row
// are restarted after an exponentially growing delay (initial, initial*factor, ...), capped at
// `maxDelayMs`; after `maxRestarts` of them we give up until the user restarts by hand. A crash
// after a long, healthy run starts the count again.

export interface BackoffOptions {
  initialDelayMs: number;
  factor: number;
  maxDelayMs: number;
  /** Restarts allowed after quick crashes in a row; the next quick crash gives up. */
  maxRestarts: number;
  /** A server that ran at least this long before crashing counts as healthy. */
  stableAfterMs: number;
}

export const DEFAULT_BACKOFF: Readonly<BackoffOptions> = Object.freeze({
  initialDelayMs: 500,
  factor: 2,
  maxDelayMs: 30_000,
  maxRestarts: 4,
  stableAfterMs: 60_000,
});

export type CrashDecision =
  | { restart: true; delayMs: number; crashesInARow: number }
  | { restart: false; crashesInARow: number };

export function backoffDelay(attempt: number, options: BackoffOptions = DEFAULT_BACKOFF): number {
  // attempt is 1-based: the first restart waits initialDelayMs.
  const raw = options.initialDelayMs * Math.pow(options.factor, Math.max(0, attempt - 1));
  return Math.min(options.maxDelayMs, Math.round(raw));
}

export class CrashPolicy {
  private startedAt: number | undefined;
  private inARow = 0;

  constructor(private readonly options: BackoffOptions = DEFAULT_BACKOFF) {}

  /** The server process was (re)started at `now` (milliseconds). */
  started(now: number): void {
    this.startedAt = now;
  }

  /** The server died unexpectedly at `now`: restart (after how long) or give up? */
  crashed(now: number): CrashDecision {
    const ranFor = this.startedAt === undefined ? 0 : now - this.startedAt;
    this.startedAt = undefined;
    this.inARow = ranFor >= this.options.stableAfterMs ? 1 : this.inARow + 1;
    if (this.inARow > this.options.maxRestarts) {
      return { restart: false, crashesInARow: this.inARow };
    }
    return { restart: true, delayMs: backoffDelay(this.inARow, this.options), crashesInARow: this.inARow };
  }

  /** A restart asked for by the user forgets earlier crashes. */
  reset(): void {
    this.startedAt = undefined;
    this.inARow = 0;
  }

  get crashesInARow(): number {
    return this.inARow;
  }
}
