/** Injectable time, so tests can fix "now". */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();
