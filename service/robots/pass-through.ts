// /upload/handle: uploads are already stored and described by the service; they pass through as they are.

import type { RobotRunner } from './robot-types';

export const runUploadHandle: RobotRunner = async ({ input }) => ({ ok: true, files: [input] });
