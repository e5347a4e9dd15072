// /upload/handle: uploads are already stored and described by the service; they pass through as they are.

import type { RobotRunner } from './robot-types';

export const runUploadHandle: RobotRunner = async ({ input }) => ({ ok: true, files: [input] });

/**
 * /file/serve: marks the file a Smart CDN URL serves (service-facts §2, §8); it passes its input on
 * unchanged. The CDN reads its `cache_duration` (service/cdn/); in an Assembly it is a plain pass-through.
 */
export const runFileServe: RobotRunner = async ({ input }) => ({ ok: true, files: [input] });
