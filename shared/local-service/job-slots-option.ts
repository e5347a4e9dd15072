/**
 * The embedded service's job-slot count (its `--job-slots` flag), as core hands it to the child in the
 * start message. Hosts read it from the environment at their composition root; core never does.
 */
export const JOB_SLOTS_ENV = 'ASSEMBLYLINE_JOB_SLOTS';

const isSlotCount = (n: unknown): n is number => Number.isInteger(n) && (n as number) >= 1 && (n as number) <= 256;

/** From the environment: undefined when unset; throws naming the variable when malformed. Pure. */
export function jobSlotsFromEnv(env: Readonly<Record<string, string | undefined>>): number | undefined {
  const text = env[JOB_SLOTS_ENV]?.trim();
  if (text === undefined || text === '') return undefined;
  const n = Number(text);
  if (!isSlotCount(n)) throw new Error(`${JOB_SLOTS_ENV} must be a whole number from 1 to 256; got "${text}".`);
  return n;
}

/** The value of a start message, or undefined when absent or not well-formed. */
export const parseJobSlots = (value: unknown): number | undefined => (isSlotCount(value) ? value : undefined);
