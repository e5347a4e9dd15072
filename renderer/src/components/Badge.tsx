import type { ReactNode } from 'react';
import type { StateTone } from '../lib/run-state';

export const Badge = ({ tone = 'neutral', children, ...rest }: { tone?: StateTone; children: ReactNode; 'data-testid'?: string; title?: string }) => (
  <span className={`badge badge-${tone}`} {...rest}>
    <span className="badge-dot" aria-hidden="true" />
    {children}
  </span>
);
