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
};

export const errorHint = (code: string): string | null => HINTS[code] ?? null;
