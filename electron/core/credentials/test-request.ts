import type { z } from 'zod';
import { credentialTypeLabel } from '../../../shared/api/credential-types';
import type { credentialTestRequestSchema, CredentialTestReport } from '../../../shared/ipc/template-models';
import { ok, type Result } from '../../../shared/result';
import type { ApiClient } from '../api/api-client';
import { describeDestination, SECRET_NOT_FOR_DESTINATION } from '../security/secret-destination';
import { mergeCredentialContent, readCredentialContent } from '../templates/credential-api';
import { fieldLabels, hasSecrets, missingRequiredSecrets, withStoredSecretsOnlyInPlace } from './credential-destination';
import { testCredentialContent, type CredentialTestOptions } from './credential-test';
import { check, report } from './report';

type TestRequest = z.output<typeof credentialTestRequestSchema>;

/**
 * Runs a `credentials:test` request: the saved content (read here, in core), the form's draft over it
 * as Save would merge it (an empty secret keeps the stored one), or the draft alone. A draft that points
 * somewhere else gets none of the stored secrets (security/secret-destination.ts): with none typed
 * again the test says so and connects nowhere.
 */
export async function runCredentialTest(api: ApiClient, request: TestRequest, options: CredentialTestOptions = {}): Promise<Result<CredentialTestReport>> {
  let type = request.draft?.type ?? '';
  let stored: Record<string, unknown> = {};
  if (request.id !== undefined) {
    const saved = await readCredentialContent(api, request.id);
    if (!saved.ok) return saved;
    type ||= saved.value.type;
    if (saved.value.type === type) stored = saved.value.content;
  }
  let content = stored;
  if (request.draft) {
    const merged = mergeCredentialContent(type, stored, request.draft.values, request.draft.clear ?? []);
    const moved = withStoredSecretsOnlyInPlace(type, stored, merged, request.draft.values);
    content = moved.content;
    const stillMissing = missingRequiredSecrets(type, content).filter((n) => moved.withheld.includes(n));
    // Tested with the secrets typed again; with none (or without a required one) it would only mislead.
    if (moved.withheld.length > 0 && (stillMissing.length > 0 || !hasSecrets(type, content))) {
      const what = fieldLabels(type, moved.withheld);
      return ok(
        report(describeDestination(moved.sendTo), [
          check(
            'settings',
            'fail',
            `The stored ${what} ${moved.withheld.length > 1 ? 'were' : 'was'} saved for ${describeDestination(moved.savedFor)}, not ${describeDestination(moved.sendTo)}: type ${moved.withheld.length > 1 ? 'them' : 'it'} again to test the ${credentialTypeLabel(type)} there.`,
            SECRET_NOT_FOR_DESTINATION,
          ),
        ]),
      );
    }
  }
  return ok(await testCredentialContent(type, content, { ...options, ...(request.path ? { path: request.path } : {}) }));
}
