import { useBridgeQuery } from '../../bridge/use-bridge';
import { ShieldIcon } from '../../components/Icons';

/** An honest note when secrets would not be protected: the local workspace works anyway. */
export const VaultBanner = () => {
  const info = useBridgeQuery('app:info', {}, { staleTime: Infinity });
  const vault = info.data?.vault;
  if (!vault || vault.secure) return null;
  return (
    <div className="banner banner-warning" role="note" aria-label="Secret storage">
      <ShieldIcon />
      <div>
        <strong>Secrets can't be stored securely on this computer.</strong> {vault.detail}{' '}
        <span className="muted">
          The local workspace needs no secret, so uploads work as usual. Before saving an account's Auth Secret, the app will ask you to accept unprotected storage.
        </span>
      </div>
    </div>
  );
};
