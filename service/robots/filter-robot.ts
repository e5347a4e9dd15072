// /file/filter as a robot: the accepted file passes through unchanged; a declined one is dropped,
// or fails the Assembly with FILE_FILTER_DECLINED_FILE when error_on_decline is set.

import { isAccepted } from './file-filter';
import type { RobotRunner } from './robot-types';

export const DEFAULT_DECLINE_MESSAGE = 'One of your files was declined';

export const runFileFilter: RobotRunner = async ({ step, params, input, scope }) => {
  let accepted: boolean;
  try {
    accepted = isAccepted(params, scope);
  } catch (e) {
    return { ok: false, code: 'FILE_FILTER_VALIDATION', message: `Step "${step}" (/file/filter): ${(e as Error).message}.` };
  }
  if (accepted) return { ok: true, files: [input] };
  if (params.error_on_decline === true) {
    const message = typeof params.error_msg === 'string' && params.error_msg !== '' ? params.error_msg : DEFAULT_DECLINE_MESSAGE;
    return { ok: false, code: 'FILE_FILTER_DECLINED_FILE', message };
  }
  return { ok: true, files: [], note: 'Declined by the filter' };
};
