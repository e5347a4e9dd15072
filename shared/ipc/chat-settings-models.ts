import { z } from 'zod';
import { chatEndpointProblem } from '../local-service/chat-option';
import { checkHostRuleList, describeHostRuleProblems } from '../local-service/host-rules';
import { TOOL_SERVER_HOST_RULES } from '../local-service/tool-server-hosts-option';

/**
 * The embedded local service's chat model (/ai/chat's OpenAI-compatible endpoint), as the app's settings
 * section shows and saves it. The API key is write-only: the view says only whether one is stored.
 */

const endpointSchema = z
  .string()
  .trim()
  .max(2_000)
  .superRefine((v, ctx) => {
    const problem = chatEndpointProblem(v);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: `The endpoint: ${problem}.` });
  });
const timeoutSchema = z.number().int().min(1).max(3_600_000);
/** The tool-server allow-list as saved: every entry a rule of `--tool-server-allow-hosts`; [] = the service's default. */
const toolServerHostsSchema = z
  .array(z.string().trim().min(1).max(300))
  .max(100)
  .superRefine((hosts, ctx) => {
    const checked = checkHostRuleList(hosts, TOOL_SERVER_HOST_RULES);
    if ('problems' in checked) ctx.addIssue({ code: 'custom', message: `Tool servers may be on: ${describeHostRuleProblems(checked.problems)}.` });
  });

export const chatSettingsViewSchema = z.object({
  /** '' when none is set: chat steps then fail with AI_CHAT_NOT_CONFIGURED. */
  endpoint: z.string(),
  /** '' = the service's default ("default"), sent when a step names no model. */
  model: z.string(),
  /** null = the service's default (120 s). */
  timeoutMs: z.number().int().positive().nullable(),
  hasApiKey: z.boolean(),
  /** Hosts a chat step's tool servers may be on (`--tool-server-allow-hosts`); [] = loopback and the service's own domains. */
  toolServerHosts: z.array(z.string()),
  /** ASSEMBLYLINE_TOOL_SERVER_ALLOW_HOSTS when the app was started with it: it wins over the saved list (shown read-only). */
  toolServerHostsFromEnvironment: z.array(z.string()).nullable(),
  /**
   * The ASSEMBLYLINE_CHAT_* variables the app was started with: when any is set they win over the saved
   * settings (shown read-only). The key is again only "set or not".
   */
  environment: z
    .object({ endpoint: z.string().nullable(), model: z.string().nullable(), timeoutMs: z.number().int().positive().nullable(), hasApiKey: z.boolean() })
    .nullable(),
  /** Saved, but the service still runs the old settings: it restarts once these running Assemblies end. */
  pendingRestart: z.object({ executing: z.number().int().nonnegative() }).nullable(),
});
export type ChatSettingsView = z.infer<typeof chatSettingsViewSchema>;

export const chatSettingsInputSchema = z.object({
  /** '' clears it. */
  endpoint: z.union([z.literal(''), endpointSchema]),
  model: z.string().trim().max(200),
  timeoutMs: timeoutSchema.nullable(),
  /** Write-only: a new key; absent keeps the stored one. */
  apiKey: z.string().min(1).max(4_000).optional(),
  /** Delete the stored key (wins over apiKey). */
  removeApiKey: z.boolean().optional(),
  /** The tool-server allow-list ([] = the service's default); absent keeps the saved one. */
  toolServerHosts: toolServerHostsSchema.optional(),
});
export type ChatSettingsInput = z.infer<typeof chatSettingsInputSchema>;

/** "Test chat server": `GET {endpoint}/models` from core, with the typed key, else the stored one. */
export const chatModelsRequestSchema = z.object({
  endpoint: endpointSchema.refine((v) => v !== '', { message: 'Enter the endpoint first.' }),
  apiKey: z.string().min(1).max(4_000).optional(),
  timeoutMs: timeoutSchema.optional(),
});
export const chatModelsSchema = z.object({ models: z.array(z.string()) });
export type ChatModels = z.infer<typeof chatModelsSchema>;
