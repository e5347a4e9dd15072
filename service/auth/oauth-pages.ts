import type { AccountRow } from '../store/database';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

// Inline styles only (the page's CSP allows nothing else); light and dark follow the system.
const STYLE = `
:root { color-scheme: light dark; --bg: #f5f5f7; --card: #fff; --text: #1d1d1f; --muted: #6b6b73; --border: #d9d9de; --accent: #2f6fde; --error: #c4322b; --error-bg: #fdecea; }
@media (prefers-color-scheme: dark) { :root { --bg: #1c1c1f; --card: #26262a; --text: #ececf0; --muted: #9d9da6; --border: #36363c; --accent: #5b93f5; --error: #e5675f; --error-bg: #3a2321; } }
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: var(--bg); color: var(--text);
  font: 15px/1.5 -apple-system, BlinkMacSystemFont, 'Segoe UI', system-ui, Ubuntu, sans-serif; }
main { width: min(520px, 92vw); background: var(--card); border: 1px solid var(--border); border-radius: 12px; padding: 28px; }
h1 { font-size: 20px; margin: 0 0 8px; }
p { margin: 8px 0; }
.muted { color: var(--muted); font-size: 13px; }
code { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 13px; overflow-wrap: anywhere; }
ul { padding-left: 20px; margin: 6px 0 12px; }
label { display: block; font-weight: 600; margin: 14px 0 6px; }
select { width: 100%; font: inherit; padding: 8px; border-radius: 8px; border: 1px solid var(--border); background: var(--card); color: var(--text); }
.actions { display: flex; gap: 10px; justify-content: flex-end; margin-top: 22px; }
button { font: inherit; padding: 8px 16px; border-radius: 8px; border: 1px solid var(--border); background: var(--card); color: var(--text); cursor: pointer; }
button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
button:disabled { opacity: 0.5; cursor: not-allowed; }
.error { border: 1px solid var(--error); background: var(--error-bg); color: var(--text); border-radius: 8px; padding: 10px 12px; }
.warning { border: 1px solid var(--border); border-left: 4px solid var(--error); border-radius: 8px; padding: 10px 12px; }
.unverified { color: var(--error); font-size: 15px; font-weight: 600; }
button:focus-visible, select:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
`;

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;

export const messagePage = (title: string, message: string) => page(title, `<h1>${esc(title)}</h1><p>${esc(message)}</p>`);

/** An active key on the consent page, with the scopes asked that it lacks (it cannot be chosen then). */
export interface ConsentKey {
  key: AccountRow;
  lacks: string[];
}

/** The consent page: which client asks, where it will send you back, which scopes, for which key. */
export function consentPage(o: { consentId: string; clientId: string; verified: boolean; redirectUri: string; scope: string | null; keys: ConsentKey[]; error?: string }): string {
  const scopes = o.scope === null ? '<li>every scope of the key you choose</li>' : o.scope.split(',').map((s) => `<li><code>${esc(s)}</code></li>`).join('');
  const usable = o.keys.filter((k) => k.lacks.length === 0);
  const labelOf = ({ key: k, lacks }: ConsentKey) =>
    `${k.description ? `${k.description} — ` : ''}${k.authKey}${k.scope ? ` (${k.scope.split(',').join(', ')})` : ' (all scopes)'}${lacks.length > 0 ? ` — lacks ${lacks.join(', ')}` : ''}`;
  const options = o.keys.map((k) => `<option value="${esc(k.key.authKey)}"${k.lacks.length > 0 ? ' disabled' : ''}>${esc(labelOf(k))}</option>`).join('');
  // With no key to choose, an empty select would hide why: list the keys and what each lacks instead.
  const chooser =
    usable.length > 0
      ? `<label for="auth_key">Act as the Auth Key</label>\n<select id="auth_key" name="auth_key">${options}</select>`
      : `<p>Active Auth Keys:</p><ul>${o.keys.map((k) => `<li><code>${esc(labelOf(k))}</code></li>`).join('')}</ul>`;
  const problem = o.error ?? (usable.length === 0 ? 'No active Auth Key has every scope asked for: you can only Deny.' : undefined);
  return page(
    'Allow access?',
    `<h1>Allow <code>${esc(o.clientId)}</code>${o.verified ? '' : ' <span class="unverified">(unverified)</span>'} to use this service?</h1>
${o.verified ? '' : `<p class="warning">Unverified: no client of this name is registered with this service. The name is only what the link that opened this page says; allow it only if you started this sign-in yourself.</p>`}
${problem ? `<p class="error" role="alert">${esc(problem)}</p>` : ''}
<p>It asks for:</p><ul>${scopes}</ul>
<p class="muted">You will be sent back to <code>${esc(o.redirectUri)}</code>. It receives short-lived tokens, never an Auth Secret.</p>
<form method="post" action="/authorize">
<input type="hidden" name="consent" value="${esc(o.consentId)}">
${chooser}
<div class="actions"><button type="submit" name="decision" value="deny">Deny</button><button type="submit" name="decision" value="allow" class="primary"${usable.length === 0 ? ' disabled' : ' autofocus'}>Allow</button></div>
</form>`,
  );
}
