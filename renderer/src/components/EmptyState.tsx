import type { ReactNode } from 'react';

export const EmptyState = ({ icon, title, children, action }: { icon?: ReactNode; title: string; children?: ReactNode; action?: ReactNode }) => (
  <div className="empty-state">
    {icon && <div className="empty-icon" aria-hidden="true">{icon}</div>}
    <p className="empty-title">{title}</p>
    {children && <div className="empty-body">{children}</div>}
    {action && <div className="empty-action">{action}</div>}
  </div>
);
