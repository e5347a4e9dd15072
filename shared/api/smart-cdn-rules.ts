// The Smart CDN's rules for the Templates it runs (service-facts §2: "a limited step count and an
// allow-list of robots", linter rules `smart-cdn-max-steps-exceeded` and `smart-cdn-robot-not-allowed`;
// the numbers are not in the facts, so they are our choice: docs/local-service.md). The local service
// refuses a CDN request with them and the Template editor lints with them. Pure: no Node, no DOM.

/** The robot that marks a Template as a Smart CDN Template (service-facts §2). */
export const SMART_CDN_SERVE_ROBOT = '/file/serve';

/**
 * At most this many declared steps. A real delivery chain needs about six: the input (`:original` or an
 * import), a `/file/filter` that routes by type, one or two transforms, an optimize and `/file/serve`;
 * ten leaves room for a branch per media type while keeping one GET's work bounded.
 */
export const SMART_CDN_MAX_STEPS = 10;

/**
 * Robots a CDN request may run: those that bring the input in from the workspace's storage, transform it,
 * or serve it. Never one that exports (any `…/store`), notifies, runs a script, fetches an arbitrary URL
 * (`/http/import`, `/html/convert`) or calls a model (`/ai/chat`, `/image/describe`, `/speech/transcribe`…):
 * a GET on a CDN URL must not write to someone's server, call out, or spend model tokens.
 */
export const SMART_CDN_ROBOTS: readonly string[] = `
/upload/handle /transloadit/import /tlcdn/deliver
/azure/import /backblaze/import /cloudfiles/import /cloudflare/import /digitalocean/import /google/import /minio/import
/s3/import /supabase/import /swift/import /tigris/import /wasabi/import
/file/filter /file/serve /file/compress /file/decompress /file/hash /file/read /file/preview /file/verify /file/watermark
/meta/read /meta/write
/image/resize /image/optimize /image/merge
/video/encode /video/thumbs /video/merge /video/concat /video/subtitle /video/artwork /video/ondemand
/audio/encode /audio/waveform /audio/concat /audio/merge /audio/loop /audio/artwork
/document/thumbs /document/convert /document/merge /document/optimize /document/autorotate
`
  .split(/\s+/)
  .filter(Boolean);

export const isSmartCdnRobot = (robot: string): boolean => SMART_CDN_ROBOTS.includes(robot);

export type SmartCdnRule = 'smart-cdn-max-steps-exceeded' | 'smart-cdn-robot-not-allowed';

/** One broken rule: the linter's rule name, the service's code, and the step (and key) it is at. */
export interface SmartCdnProblem {
  readonly rule: SmartCdnRule;
  /** What the local service answers a CDN request with (422). */
  readonly code: 'CDN_TEMPLATE_TOO_MANY_STEPS' | 'CDN_TEMPLATE_ROBOT_NOT_ALLOWED';
  readonly message: string;
  readonly step: string;
  readonly parameter?: 'robot';
  readonly robot?: string;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether a steps value has a `/file/serve` step: what makes it a Smart CDN Template. */
export function isSmartCdnTemplate(steps: unknown): boolean {
  return isPlainObject(steps) && Object.values(steps).some((s) => isPlainObject(s) && s.robot === SMART_CDN_SERVE_ROBOT);
}

/**
 * Every Smart CDN problem of a steps value, in key order: each step whose robot is not on the allow-list,
 * then the step count (at the first step over the limit). Malformed steps are left to the step rules.
 */
export function smartCdnProblems(steps: unknown): SmartCdnProblem[] {
  if (!isPlainObject(steps)) return [];
  const problems: SmartCdnProblem[] = [];
  for (const [name, step] of Object.entries(steps)) {
    if (!isPlainObject(step) || typeof step.robot !== 'string' || isSmartCdnRobot(step.robot)) continue;
    problems.push({
      rule: 'smart-cdn-robot-not-allowed',
      code: 'CDN_TEMPLATE_ROBOT_NOT_ALLOWED',
      message: `Step "${name}" uses ${step.robot}, which the Smart CDN does not run: a CDN request only imports, transforms and serves files (never stores, notifies or calls a model).`,
      step: name,
      parameter: 'robot',
      robot: step.robot,
    });
  }
  const names = Object.keys(steps);
  if (names.length > SMART_CDN_MAX_STEPS) {
    const first = names[SMART_CDN_MAX_STEPS]!;
    problems.push({
      rule: 'smart-cdn-max-steps-exceeded',
      code: 'CDN_TEMPLATE_TOO_MANY_STEPS',
      message: `A Smart CDN Template has at most ${SMART_CDN_MAX_STEPS} steps; this one has ${names.length} (step "${first}" is the first over the limit).`,
      step: first,
    });
  }
  return problems;
}
