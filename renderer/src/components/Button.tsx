import type { ButtonHTMLAttributes, ReactNode, Ref } from 'react';
import { Spinner } from './Spinner';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  readonly variant?: Variant;
  readonly size?: 'md' | 'sm';
  readonly busy?: boolean;
  readonly icon?: ReactNode;
  readonly ref?: Ref<HTMLButtonElement>;
}

export const Button = ({ variant = 'secondary', size = 'md', busy = false, icon, className, children, type = 'button', ...rest }: ButtonProps) => (
  <button type={type} className={['btn', `btn-${variant}`, `btn-${size}`, className].filter(Boolean).join(' ')} aria-busy={busy || undefined} {...rest}>
    {busy ? <Spinner size={14} /> : icon}
    {children !== undefined && <span className="btn-label">{children}</span>}
  </button>
);
