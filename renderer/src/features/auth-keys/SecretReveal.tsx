import { useLayoutEffect, useRef, useState } from 'react';
import { useBridge } from '../../bridge/BridgeProvider';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorPanel } from '../../components/ErrorPanel';
import { useNow } from '../../hooks/use-now';

export const REVEAL_SECONDS = 30;

export interface SecretRevealProps {
  readonly keyId: string;
  readonly authKey: string;
  readonly workspaceId?: string;
  /** Masked again: the parent unmounts this widget, so the secret leaves the DOM and React state. */
  readonly onClose: () => void;
  /** Tests shorten it. */
  readonly maskAfterMs?: number;
}

type Phase = { readonly kind: 'confirm' } | { readonly kind: 'loading' } | { readonly kind: 'shown'; readonly secret: string; readonly until: number } | { readonly kind: 'failed'; readonly code: string; readonly message: string };

/**
 * "Reveal" (the consoles' convention), the one place a secret reaches the page: asked for after a
 * confirmation, held only in this widget's own state (never react-query, zustand or a log), and gone
 * after `maskAfterMs`, when the window loses focus or is hidden, on Hide, and when the screen is left.
 */
export const SecretReveal = ({ keyId, authKey, workspaceId, onClose, maskAfterMs = REVEAL_SECONDS * 1000 }: SecretRevealProps) => {
  const bridge = useBridge();
  const [phase, setPhase] = useState<Phase>({ kind: 'confirm' });
  const shown = phase.kind === 'shown';
  const now = useNow(shown);
  // The latest onClose, so a parent's re-render never restarts the timer.
  const close = useRef(onClose);
  close.current = onClose;

  // A layout effect: the listeners are there when the secret is on screen, not a frame later (a blur in
  // between would leave it shown).
  useLayoutEffect(() => {
    if (!shown) return;
    const mask = () => close.current();
    const timer = setTimeout(mask, maskAfterMs);
    const hidden = () => document.visibilityState === 'hidden' && mask();
    window.addEventListener('blur', mask);
    document.addEventListener('visibilitychange', hidden);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('blur', mask);
      document.removeEventListener('visibilitychange', hidden);
    };
  }, [shown, maskAfterMs]);

  const reveal = async () => {
    setPhase({ kind: 'loading' });
    // Straight through the bridge, not useBridgeMutation: a mutation would keep the answer in its cache.
    const answer = await bridge.invoke('authKeys:revealSecret', { id: keyId, ...(workspaceId ? { workspaceId } : {}) });
    setPhase(answer.ok ? { kind: 'shown', secret: answer.value.secret, until: Date.now() + maskAfterMs } : { kind: 'failed', code: answer.error.code, message: answer.error.message });
  };

  const name = `${authKey.slice(0, 12)}…`;
  if (phase.kind === 'confirm' || phase.kind === 'loading') {
    return (
      <ConfirmDialog open title={`Reveal the secret of ${name}?`} confirmLabel="Reveal secret" busy={phase.kind === 'loading'} onCancel={onClose} onConfirm={() => void reveal()}>
        Anyone who can see your screen can read it. It is shown here only, for {Math.round(maskAfterMs / 1000)} seconds, and hidden again as soon as you leave this screen or
        switch to another window. Assemblyline keeps no copy of it in the page.
      </ConfirmDialog>
    );
  }
  if (phase.kind === 'failed') {
    return (
      <div className="secret-reveal" data-testid="secret-reveal">
        <ErrorPanel title="The secret was not revealed" code={phase.code} message={phase.message} action={<Button onClick={onClose}>Close</Button>} />
      </div>
    );
  }
  // `now` may predate the reveal by a tick: never count up from more than the whole time.
  const left = Math.min(Math.round(maskAfterMs / 1000), Math.max(0, Math.ceil((phase.until - now) / 1000)));
  return (
    <section className="secret-reveal" aria-label={`Secret of ${name}`} data-testid="secret-reveal">
      <div className="secret-reveal-head">
        <h2 className="section-title">Secret of {name}</h2>
        <span className="small muted" data-testid="secret-reveal-countdown" aria-live="off">
          Hidden again in {left} s
        </span>
      </div>
      <code className="secret-reveal-value mono" data-testid="revealed-secret" aria-label="Auth Secret">
        {phase.secret}
      </code>
      <p className="small muted">Select it to copy it by hand. It is hidden when you leave this screen or this window.</p>
      <div className="template-actions">
        <Button variant="primary" onClick={onClose} autoFocus>
          Hide secret
        </Button>
      </div>
    </section>
  );
};
