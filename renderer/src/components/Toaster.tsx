import { useToasts } from '../state/toast-store';

/** One polite live region for short confirmations ("Copied"). */
export const Toaster = () => {
  const toasts = useToasts((s) => s.toasts);
  return (
    <div className="toaster" role="status" aria-live="polite">
      {toasts.map((t) => (
        <div key={t.id} className={`toast toast-${t.tone}`}>
          {t.text}
        </div>
      ))}
    </div>
  );
};
