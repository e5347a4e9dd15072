/** What the user can do about an error, for the codes whose fix is not obvious from the message. */
const HINTS: Record<string, string> = {
  INSUFFICIENT_AUTH_SCOPE:
    "This workspace's key, or the scopes its tokens are limited to, lacks the scope this screen needs. Widen the token scopes in Workspaces, or give the key the scope on the Auth Keys screen.",
  AUTH_KEY_INACTIVE:
    'The Auth Key of this workspace is inactive. Switch this workspace to another key (Workspaces → Switch key) or reactivate it from a workspace that can; the Local workspace can always Restore full access.',
  CLIPBOARD_UNAVAILABLE: 'There is no clipboard here: use Reveal to read the secret on screen instead.',
  SIGN_IN_REQUIRED: 'Sign in with the browser again in Workspaces.',
  VAULT_UNAVAILABLE: 'Assemblyline keeps secrets in the system keychain only; unlock or install it, then try again.',
  GET_ACCOUNT_UNKNOWN_AUTH_KEY: 'The service does not know this Auth Key: check it in Workspaces.',
  INVALID_SIGNATURE: "The Auth Secret does not match the workspace's key: type it again in Workspaces.",
  FILE_HANDLE_UNKNOWN: 'Assemblyline no longer holds these files (it restarted, or they sat unused for hours): clear the list and add them again.',
  ROTATION_IN_PROGRESS: 'Finish the rotation that is already under way (Resume) or undo it (Roll back) in Workspaces.',
  // Failed Assemblies (service-facts.md §9): what to change before running the files again.
  INVALID_INPUT_ERROR: 'No file suited the step (an empty file, or a kind of file its robot cannot read). Check the files, or put a /file/filter step before it.',
  FILE_FILTER_DECLINED_FILE: 'The filter step is set to fail the Assembly when it declines a file (error_on_decline). Remove the file, or set error_on_decline to false to drop it quietly.',
  ASSEMBLY_STEP_UNKNOWN_ROBOT: 'Check the robot name of the step; the message lists the robots this service runs.',
  ASSEMBLY_INFINITE: 'Change the "use" of one of the steps named in the message so they no longer feed each other.',
  ASSEMBLY_CRASHED: 'The service stopped while it ran this Assembly. Start the files again.',
  ASSEMBLY_EXPIRED: 'The service gives up on Assemblies still running after 8 hours. Start the files again, in smaller batches.',
  INTERNAL_COMMAND_ERROR: 'A processing tool failed on a file. The message says which; try that file on its own, or skip it.',
  INTERNAL_COMMAND_TIMEOUT: 'A processing tool took too long on a file. Try that file on its own, or with lighter settings.',
  TEMPLATE_DENIES_STEPS_OVERRIDE: 'This Template does not allow its steps to be replaced: run it without custom steps, or set "allow_steps_override" to true in the Template.',
};

/** Hints by the shape of a code, for the robot-specific families the service has (`<ROBOT>_VALIDATION`, …). */
const PATTERN_HINTS: ReadonlyArray<readonly [RegExp, string]> = [
  [/_VALIDATION$/, 'A parameter of the step has a value its robot does not accept; the message names it. Fix it in the steps or the Template.'],
  [/^ASSEMBLY_STEP_|^INVALID_(UPLOAD_HANDLE_)?STEP_NAME$/, 'Fix the step the message names, in the steps or the Template, then try again.'],
  [/_(IMPORT|STORE)_ACCESS_DENIED$/, 'The storage refused the credentials: check the Template credential the step uses.'],
];

export const errorHint = (code: string): string | null => HINTS[code] ?? PATTERN_HINTS.find(([re]) => re.test(code))?.[1] ?? null;
