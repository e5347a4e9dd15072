/**
 * Whether `npm start` opens the system browser on the host's URL, and what to print when it does not — a
 * headless machine (SSH, CI, a container) has no browser to open, and must say so rather than go quiet.
 */
export type OpenPlan = { readonly open: true } | { readonly open: false; readonly message: string };

export const browserOpenPlan = (platform: NodeJS.Platform, env: NodeJS.ProcessEnv, url: string): OpenPlan => {
  if (env.ASSEMBLYLINE_NO_OPEN) return { open: false, message: 'Not opening a browser (ASSEMBLYLINE_NO_OPEN is set): open the URL above.' };
  if (platform !== 'linux' || env.DISPLAY || env.WAYLAND_DISPLAY) return { open: true };
  const port = new URL(url).port;
  return {
    open: false,
    message: [
      'No display found (neither DISPLAY nor WAYLAND_DISPLAY is set), so no browser was opened.',
      'Open the URL above in a browser on this machine; from another machine, forward the port first:',
      `  ssh -L ${port}:127.0.0.1:${port} <this-machine>   then open the same URL there.`,
      'The app keeps running until you press Ctrl+C.',
    ].join('\n'),
  };
};
