import { useQueryClient } from '@tanstack/react-query';
import { useBridgeMutation } from '../../bridge/use-bridge';
import { Button } from '../../components/Button';
import { useToasts } from '../../state/toast-store';

const DONE = {
  unchanged: 'Local already had an active full-access key; it signs with it now.',
  reactivated: 'Reactivated the full-access key of the local service; Local signs with it again.',
  created: 'Made a new full-access key on the local service; Local signs with it now.',
} as const;

/**
 * The Local workspace's way back in: core reactivates or creates a full-access key through the local
 * service's own process (never the API) and signs with it. Every screen then reads again.
 */
export const RestoreAccessButton = ({ variant = 'secondary', size = 'md' }: { variant?: 'primary' | 'secondary'; size?: 'sm' | 'md' }) => {
  const client = useQueryClient();
  const toast = useToasts((s) => s.show);
  const restore = useBridgeMutation('workspaces:restoreLocalAccess', {
    onSuccess: (r) => {
      toast(r.scopeLimitLifted ? `${DONE[r.action]} Its tokens are no longer limited to some scopes.` : DONE[r.action], 'success');
      void client.invalidateQueries();
    },
    onError: (e) => toast(`${e.code}: ${e.message}`, 'danger'),
  });
  return (
    <Button variant={variant} size={size} busy={restore.isPending} onClick={() => restore.mutate({})} aria-label="Restore full access of Local">
      Restore full access
    </Button>
  );
};
