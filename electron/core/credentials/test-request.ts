import type { z } from 'zod';
import type { credentialTestRequestSchema, CredentialTestReport } from '../../../shared/ipc/template-models';
import { ok, type Result } from '../../../shared/result';
import type { ApiClient } from '../api/api-client';
import { mergeCredentialContent, readCredentialContent } from '../templates/credential-api';
import { testCredentialContent, type CredentialTestOptions } from './credential-test';

type TestRequest = z.output<typeof credentialTestRequestSchema>;

/**
 * Runs a `credentials:test` request: the saved content (read here, in core), the form's draft over it
 * as Save would merge it (an empty secret keeps the stored one), or the draft alone.
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
  const content = request.draft ? mergeCredentialContent(type, stored, request.draft.values, request.draft.clear ?? []) : stored;
  return ok(await testCredentialContent(type, content, { ...options, ...(request.path ? { path: request.path } : {}) }));
}
