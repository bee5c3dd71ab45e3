/**
 * How often a key's holder may change their keys from the account page. Every change writes an
 * audit entry the operator cannot delete, so an unbounded holder could bury a key's real history
 * under their own; each bound is above anything an honest holder does (decision 0045). The
 * windows are fixed (the UTC hour, the UTC day), so a place frees at a time the page can name.
 */

export type HolderAction = 'roll' | 'origins' | 'allowance-mails' | 'request';

export interface ActionBound {
  /** Counted for the one key acted on, or for every key of the holder together. */
  readonly scope: 'key' | 'holder';
  readonly per: 'hour' | 'day';
  readonly atMost: number;
}

const windowMs = { hour: 3_600_000, day: 86_400_000 } as const;

/** The bounds of each action, the key's before the holder's (the order places are taken in, so two at once never wait on each other crosswise). */
export const holderActionBounds: Readonly<Record<HolderAction, readonly ActionBound[]>> = {
  roll: [
    { scope: 'key', per: 'hour', atMost: 5 },
    { scope: 'key', per: 'day', atMost: 10 },
    { scope: 'holder', per: 'hour', atMost: 20 },
  ],
  origins: [
    { scope: 'key', per: 'hour', atMost: 10 },
    { scope: 'key', per: 'day', atMost: 30 },
    { scope: 'holder', per: 'hour', atMost: 30 },
  ],
  'allowance-mails': [
    { scope: 'key', per: 'hour', atMost: 6 },
    { scope: 'key', per: 'day', atMost: 12 },
    { scope: 'holder', per: 'hour', atMost: 20 },
  ],
  request: [
    { scope: 'key', per: 'day', atMost: 3 },
    { scope: 'holder', per: 'day', atMost: 10 },
  ],
};

/** One window an action takes a place in: the bound, and the window `now` falls in. */
export interface ActionWindow {
  readonly bound: ActionBound;
  readonly windowSeconds: number;
  readonly start: Date;
  readonly end: Date;
}

/** The windows of `action` that `now` falls in, in the order of its bounds. */
export function actionWindows(action: HolderAction, now: Date): ActionWindow[] {
  return holderActionBounds[action].map((bound) => {
    const length = windowMs[bound.per];
    const start = Math.floor(now.getTime() / length) * length;
    return { bound, windowSeconds: length / 1000, start: new Date(start), end: new Date(start + length) };
  });
}

const actionWords: Record<HolderAction, string> = {
  roll: 'rolls',
  origins: 'saves of the allowed origins',
  'allowance-mails': 'changes to the allowance mails',
  request: 'requests',
};

/** Seconds until the window ends (at least 1): the 429's Retry-After. */
export const secondsLeftIn = (window: ActionWindow, now: Date): number =>
  Math.max(1, Math.ceil((window.end.getTime() - now.getTime()) / 1000));

function waitWords(seconds: number): string {
  if (seconds < 2 * 3600) {
    const minutes = Math.ceil(seconds / 60);
    return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  }
  return `${Math.ceil(seconds / 3600)} hours`;
}

/** The refusal in the holder's words: which bound, and when a place frees. */
export function boundReachedWords(action: HolderAction, window: ActionWindow, now: Date): string {
  const { bound } = window;
  const whose = bound.scope === 'key' ? 'this key' : 'your keys';
  const until = window.end
    .toISOString()
    .slice(bound.per === 'hour' ? 11 : 0, 16)
    .replace('T', ' ');
  return `Too many ${actionWords[action]} of ${whose}: at most ${bound.atMost} a${bound.per === 'hour' ? 'n' : ''} ${bound.per}. Try again after ${until} UTC (in ${waitWords(secondsLeftIn(window, now))}).`;
}
