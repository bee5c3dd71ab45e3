/** The time source every rule reads; injected so tests can cross a month end without waiting. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
