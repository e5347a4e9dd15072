import type { ButtonHTMLAttributes, ReactNode } from 'react';

export interface IconButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** The accessible name (also the tooltip): icon-only buttons must still say what they do. */
  readonly label: string;
  readonly children: ReactNode;
}

export const IconButton = ({ label, children, className, type = 'button', ...rest }: IconButtonProps) => (
  <button type={type} className={['icon-btn', className].filter(Boolean).join(' ')} aria-label={label} title={label} {...rest}>
    {children}
  </button>
);
