/**
 * Plays the person at the browser for the consent page of the local service: reads the page, answers
 * Allow or Deny with the first (or a named) key, and follows the redirect like a browser would. For tests.
 */
export async function answerConsent(authorizeUrl: string, decision: 'allow' | 'deny', authKey?: string): Promise<{ location: string; callbackStatus: number | null }> {
  const page = await fetch(authorizeUrl);
  const html = await page.text();
  if (page.status !== 200) throw new Error(`consent page answered ${page.status}: ${html.slice(0, 200)}`);
  const consent = /name="consent" value="([^"]+)"/.exec(html)?.[1];
  // The first key the page lets you choose (keys lacking a scope asked are disabled).
  const firstKey = /<option value="([^"]+)">/.exec(html)?.[1];
  if (!consent || !firstKey) throw new Error('no consent form on the page');
  const origin = new URL(authorizeUrl).origin;
  const answer = await fetch(`${origin}/authorize`, {
    method: 'POST',
    redirect: 'manual',
    // What a browser sends with the page's own form post.
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin, 'Sec-Fetch-Site': 'same-origin' },
    body: new URLSearchParams({ consent, auth_key: authKey ?? firstKey, decision }).toString(),
  });
  const location = answer.headers.get('location') ?? '';
  // Follow to a loopback callback, as the browser would; other redirects are only reported.
  const callback = /^http:\/\/127\.0\.0\.1:\d+\/callback/.test(location) ? await fetch(location).catch(() => null) : null;
  return { location, callbackStatus: callback?.status ?? null };
}
