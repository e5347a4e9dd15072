// What core tests start a real core with (used by *.test.ts only): its folders in the test's temp dir, a
// recording desktop, the browser host; and a call through the handlers as a page makes it.
import path from 'node:path';
import type { CorePorts, Core } from '../create-core';
import { dispatch } from '../ipc/dispatch';
import { createRecordingDesktop } from '../ports/recording-desktop';

/**
 * A core's ports for a test in `dir`: data in `<dir>/data`, downloads in `<dir>/downloads`, a recording
 * desktop, the browser host, version 0.0.0. The secret store is the test's choice (keyring, file,
 * unavailable): it decides what the test exercises; `ports` overrides anything else.
 */
export const testCorePorts = (dir: string, ports: Pick<CorePorts, 'secretStore'> & Partial<CorePorts>): CorePorts => ({
  dataDir: path.join(dir, 'data'),
  downloadsDir: path.join(dir, 'downloads'),
  desktop: createRecordingDesktop(),
  host: 'browser',
  version: '0.0.0',
  ...ports,
});

/** Calls a channel as the page does and gives its value; a refusal throws with the channel, code and message. */
export async function callCore<T>(core: Pick<Core, 'handlers'>, channel: string, request: unknown = {}): Promise<T> {
  const answer = await dispatch(core.handlers, channel, request);
  if (!answer.ok) throw new Error(`${channel}: ${answer.error.code} ${answer.error.message}`);
  return answer.value as T;
}
