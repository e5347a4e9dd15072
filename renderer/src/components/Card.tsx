import type { HTMLAttributes } from 'react';

export const Card = ({ className, ...rest }: HTMLAttributes<HTMLDivElement>) => <div className={['card', className].filter(Boolean).join(' ')} {...rest} />;
