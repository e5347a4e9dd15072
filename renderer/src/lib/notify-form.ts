import { NOTIFICATION_PAYLOAD_OPTIONS, type Instructions } from '../../../shared/api/instructions';

export type PayloadOption = (typeof NOTIFICATION_PAYLOAD_OPTIONS)[number];

/** The Upload view's "Notify a URL when done": a URL (empty = none) and what the notification leaves out. */
export interface NotifyForm {
  readonly url: string;
  readonly leaveOut: readonly PayloadOption[];
}

export const EMPTY_NOTIFY_FORM: NotifyForm = { url: '', leaveOut: [] };

/** Words for each `notification_payload` value (service-facts §3). */
export const PAYLOAD_LABELS: Readonly<Record<PayloadOption, string>> = {
  without_uploads: 'Uploads',
  without_upload_meta_data: 'Upload meta data',
  without_results: 'Results',
  without_result_meta_data: 'Result meta data',
};

/** Whether a notify URL is one the service takes: http or https. Null when fine (or empty). Pure. */
export function notifyUrlProblem(url: string): string | null {
  const text = url.trim();
  if (text === '') return null;
  try {
    const parsed = new URL(text);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return text.length > 2048 ? 'A notify URL has at most 2048 characters.' : null;
  } catch {
    // falls through to the message
  }
  return 'A notify URL starts with http:// or https://.';
}

/** The instructions with `notify_url` and `notification_payload` when a URL is set (in a fixed order). Pure. */
export function withNotify<T extends Instructions>(instructions: T, form: NotifyForm): T {
  const url = form.url.trim();
  if (url === '' || notifyUrlProblem(url) !== null) return instructions;
  const leaveOut = NOTIFICATION_PAYLOAD_OPTIONS.filter((o) => form.leaveOut.includes(o));
  return { ...instructions, notify_url: url, ...(leaveOut.length > 0 ? { notification_payload: leaveOut } : {}) };
}
