import { useQueryClient } from '@tanstack/react-query';
import { bridgeKey, useBridgeMutation, useBridgeQuery } from '../../bridge/use-bridge';
import { ErrorPanel } from '../../components/ErrorPanel';

/**
 * The app's own preferences (Settings… in the menu opens this screen). Background mode needs a tray icon,
 * which only the Electron host has: elsewhere the box is shown disabled, with the reason under it.
 */
export const DesktopPreferences = () => {
  const client = useQueryClient();
  const prefs = useBridgeQuery('app:preferences', {});
  const save = useBridgeMutation('app:savePreferences', {
    onSuccess: (view) => client.setQueryData(bridgeKey('app:preferences', {}), view),
  });
  const view = prefs.data;
  const available = view?.background.available ?? false;
  const checked = save.isPending && save.variables.keepRunningInBackground !== undefined ? save.variables.keepRunningInBackground : (view?.keepRunningInBackground ?? false);
  return (
    <section aria-label="Desktop" className="desktop-preferences settings-group" data-testid="desktop-preferences">
      <h2 className="section-title">Desktop</h2>
      {prefs.isError && <ErrorPanel title="Could not read the preferences" code={prefs.error.code} message={prefs.error.message} />}
      <label className="form-check">
        <input
          type="checkbox"
          checked={checked}
          disabled={!view || !available || save.isPending}
          aria-describedby="background-hint"
          onChange={(e) => save.mutate({ keepRunningInBackground: e.currentTarget.checked })}
        />{' '}
        Keep running in the background when the window is closed
      </label>
      <p id="background-hint" className="small muted desktop-hint">
        {view && !available
          ? view.background.reason
          : 'Transfers go on with the window closed; an icon in the tray (menu bar on macOS) shows them, with Pause all, Resume all and Quit.'}
      </p>
      {save.error && <ErrorPanel title="Not saved" code={save.error.code} message={save.error.message} />}
    </section>
  );
};
