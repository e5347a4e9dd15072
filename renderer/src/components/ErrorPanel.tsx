import type { ReactNode } from 'react';
import { errorHint } from '../lib/error-hints';

export interface ErrorPanelProps {
  readonly title: string;
  readonly code: string;
  readonly message: string;
  readonly httpCode?: number;
  readonly action?: ReactNode;
  /** Where and why, when the service says (a failed Assembly's step, parameter, reason). */
  readonly facts?: ReadonlyArray<{ readonly label: string; readonly value: string; readonly code?: boolean }>;
  readonly 'data-testid'?: string;
}

/** Shows the service's (or app's) error code as-is, so a user can search for it or quote it to support. */
export const ErrorPanel = ({ title, code, message, httpCode, action, facts = [], ...rest }: ErrorPanelProps) => (
  <div className="error-panel" role="alert" {...rest}>
    <div className="error-head">
      <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true">
        <circle cx="8" cy="8" r="7" fill="currentColor" />
        <path d="M8 4.2v4.6M8 11.2v.4" stroke="var(--bg-raised)" strokeWidth="1.8" strokeLinecap="round" />
      </svg>
      <strong>{title}</strong>
    </div>
    <p className="error-message">{message}</p>
    {facts.length > 0 && (
      <dl className="error-facts">
        {facts.map((f) => (
          <div key={f.label}>
            <dt>{f.label}</dt>
            <dd>{f.code ? <code>{f.value}</code> : f.value}</dd>
          </div>
        ))}
      </dl>
    )}
    {errorHint(code) && <p className="error-hint">{errorHint(code)}</p>}
    <p className="error-meta">
      <code className="error-code">{code}</code>
      {/* A 2xx status is no error status: a failed Assembly's record comes with HTTP 200, which says nothing. */}
      {httpCode !== undefined && httpCode >= 400 && <span className="muted">HTTP {httpCode}</span>}
    </p>
    {action && <div className="error-action">{action}</div>}
  </div>
);
