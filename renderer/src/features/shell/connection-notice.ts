import type { ServiceStatus } from '../../../../shared/ipc/service-models';

export interface ConnectionNotice {
  readonly tone: 'danger' | 'warning';
  readonly title: string;
  readonly detail: string;
}

/**
 * What the header says about the app's own parts, most severe first: the link to the app (browser host)
 * is down; the local service is not responding; it is restarting. null when all is well. Only shown
 * while the Local workspace is active: a remote workspace does not depend on the local service.
 */
export function connectionNotice(hostConnected: boolean, service: ServiceStatus | null | undefined, localActive: boolean): ConnectionNotice | null {
  if (!hostConnected) {
    return {
      tone: 'danger',
      title: 'Disconnected from Assemblyline.',
      detail: 'Reconnecting… Uploads continue in the app; this page catches up when the connection is back.',
    };
  }
  if (!service || !localActive) return null;
  if (service.phase === 'unresponsive') {
    return { tone: 'warning', title: 'Local service not responding.', detail: 'It will be restarted if it does not recover; uploads resume afterwards.' };
  }
  if (service.phase === 'restarting' || (service.phase === 'starting' && service.restarts > 0)) {
    const why = service.message ? ` (${service.message})` : '';
    return { tone: 'warning', title: 'Local service restarting…', detail: `Uploads in progress resume when it is back${why}.` };
  }
  return null;
}
