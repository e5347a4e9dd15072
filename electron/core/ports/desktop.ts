/** Side effects on the user's desktop, behind a port so core runs (and tests) without Electron. */
export interface DesktopPort {
  openPath(path: string): Promise<void>;
  revealPath(path: string): Promise<void>;
}
