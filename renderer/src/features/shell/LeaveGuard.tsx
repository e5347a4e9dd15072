import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useNavigation } from '../../state/navigation-store';

const listed = (what: readonly string[]): string =>
  what.length <= 1 ? (what[0] ?? 'this form') : `${what.slice(0, -1).join(', ')} and ${what[what.length - 1]}`;

/**
 * The question the navigation guard asks (state/navigation-store.ts `guarded`) before a move leaves unsaved
 * input behind: Stay (focused first, and Escape) keeps everything as it is; Leave lets the input go.
 */
export const LeaveGuard = () => {
  const pending = useNavigation((s) => s.pending);
  const leave = useNavigation((s) => s.leave);
  const stay = useNavigation((s) => s.stay);
  return (
    <ConfirmDialog open={pending !== null} title="Leave without saving?" confirmLabel="Leave" cancelLabel="Stay" tone="danger" onConfirm={leave} onCancel={stay}>
      What you changed in {listed(pending?.what ?? [])} is not saved. Stay keeps it as it is; Leave throws it away.
    </ConfirmDialog>
  );
};
