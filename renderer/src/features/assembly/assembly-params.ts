import { formatBytes } from '../../lib/format';

/** One request param of an Assembly as its detail lists it. */
export interface ParamFact {
  readonly label: string;
  readonly value: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What the request set beyond the steps, read from the status's `params` (the JSON as the service
 * received it): limits and referer in `auth`, what the notification leaves out, the encoding stack
 * versions of the steps. Notify URL and fields have their own places in the detail. Pure; [] for none or
 * unreadable params.
 */
export function paramFacts(paramsJson: unknown): ParamFact[] {
  if (typeof paramsJson !== 'string') return [];
  let params: unknown;
  try {
    params = JSON.parse(paramsJson);
  } catch {
    return [];
  }
  if (!isRecord(params)) return [];
  const facts: ParamFact[] = [];
  const auth = isRecord(params.auth) ? params.auth : {};
  if (typeof auth.max_size === 'number') facts.push({ label: 'Max size (max_size)', value: `${formatBytes(auth.max_size)} · ${auth.max_size.toLocaleString('en-US')} bytes` });
  if (typeof auth.max_number_of_files === 'number') facts.push({ label: 'Max files (max_number_of_files)', value: auth.max_number_of_files.toLocaleString('en-US') });
  if (typeof auth.referer === 'string') facts.push({ label: 'Referer', value: auth.referer });
  if (Array.isArray(params.notification_payload) && params.notification_payload.length > 0) {
    facts.push({ label: 'Notification payload', value: params.notification_payload.map(String).join(', ') });
  }
  const stacks = isRecord(params.steps)
    ? Object.entries(params.steps).flatMap(([name, step]) => (isRecord(step) && typeof step.ffmpeg_stack === 'string' ? [`${name}: ${step.ffmpeg_stack}`] : []))
    : [];
  if (stacks.length > 0) facts.push({ label: 'Encoding stack (ffmpeg_stack)', value: stacks.join(', ') });
  return facts;
}
