/** A few line icons drawn inline (the CSP allows no external fonts or images besides data: URLs). */
const base = { width: 16, height: 16, viewBox: '0 0 16 16', fill: 'none', stroke: 'currentColor', strokeWidth: 1.5, strokeLinecap: 'round', strokeLinejoin: 'round', 'aria-hidden': true } as const;

export const UploadIcon = ({ size = 16 }: { size?: number }) => (
  <svg {...base} width={size} height={size}>
    <path d="M8 10.5V2.5M4.8 5.7 8 2.5l3.2 3.2M2.5 10.5v2a1 1 0 0 0 1 1h9a1 1 0 0 0 1-1v-2" />
  </svg>
);
export const ActivityIcon = () => (
  <svg {...base}>
    <path d="M1.5 8h3l2-5 3 10 2-5h3" />
  </svg>
);
export const FileIcon = () => (
  <svg {...base}>
    <path d="M9 1.5H4a1 1 0 0 0-1 1v11a1 1 0 0 0 1 1h8a1 1 0 0 0 1-1V5.5z" />
    <path d="M9 1.5v4h4" />
  </svg>
);
export const FolderIcon = () => (
  <svg {...base}>
    <path d="M1.5 4a1 1 0 0 1 1-1h3.5l1.5 1.5h6a1 1 0 0 1 1 1V12a1 1 0 0 1-1 1h-11a1 1 0 0 1-1-1z" />
  </svg>
);
export const CloseIcon = () => (
  <svg {...base}>
    <path d="m4 4 8 8M12 4l-8 8" />
  </svg>
);
export const CopyIcon = () => (
  <svg {...base}>
    <rect x="5.5" y="5.5" width="8" height="8" rx="1" />
    <path d="M10.5 5.5V3.5a1 1 0 0 0-1-1h-6a1 1 0 0 0-1 1v6a1 1 0 0 0 1 1h2" />
  </svg>
);
export const SunIcon = () => (
  <svg {...base}>
    <circle cx="8" cy="8" r="3" />
    <path d="M8 1v1.5M8 13.5V15M1 8h1.5M13.5 8H15M3 3l1 1M12 12l1 1M3 13l1-1M12 4l1-1" />
  </svg>
);
export const MoonIcon = () => (
  <svg {...base}>
    <path d="M13.5 9.5A5.5 5.5 0 0 1 6.5 2.5a5.5 5.5 0 1 0 7 7z" />
  </svg>
);
export const MonitorIcon = () => (
  <svg {...base}>
    <rect x="1.5" y="2.5" width="13" height="9" rx="1" />
    <path d="M5.5 14h5M8 11.5V14" />
  </svg>
);
export const ShieldIcon = () => (
  <svg {...base}>
    <path d="M8 1.5 2.5 3.5v4c0 3.5 2.5 6 5.5 7 3-1 5.5-3.5 5.5-7v-4z" />
    <path d="M8 5v3.5M8 10.8v.2" />
  </svg>
);
export const ImageIcon = () => (
  <svg {...base}>
    <rect x="1.5" y="2.5" width="13" height="11" rx="1" />
    <circle cx="5.5" cy="6" r="1.2" />
    <path d="m14.5 11-4-4-7 6.5" />
  </svg>
);
export const TemplateIcon = () => (
  <svg {...base}>
    <rect x="2" y="2" width="12" height="12" rx="1.5" />
    <path d="M2 6h12M6 6v8" />
  </svg>
);
export const KeyIcon = () => (
  <svg {...base}>
    <circle cx="5" cy="10.5" r="3" />
    <path d="M7.2 8.3 13.5 2M11 4.5l1.8 1.8M9.6 5.9l1.3 1.3" />
  </svg>
);
export const ServerIcon = () => (
  <svg {...base}>
    <rect x="2" y="2.5" width="12" height="4.5" rx="1" />
    <rect x="2" y="9" width="12" height="4.5" rx="1" />
    <path d="M4.5 4.75h.01M4.5 11.25h.01" />
  </svg>
);
export const LockIcon = () => (
  <svg {...base}>
    <rect x="3" y="7" width="10" height="7" rx="1.2" />
    <path d="M5.5 7V5a2.5 2.5 0 0 1 5 0v2" />
  </svg>
);
export const LinkIcon = () => (
  <svg {...base}>
    <path d="M6.5 9.5 9.5 6.5M7 4.5l1-1a2.8 2.8 0 0 1 4 4l-1 1M9 11.5l-1 1a2.8 2.8 0 0 1-4-4l1-1" />
  </svg>
);
/** Usage: a gauge. */
export const GaugeIcon = () => (
  <svg {...base}>
    <path d="M2.2 11.5a6 6 0 1 1 11.6 0M8 9.5l2.6-3" />
  </svg>
);
/** Statistics: bars. */
export const ChartIcon = () => (
  <svg {...base}>
    <path d="M2 13.5h12M4 11V8M7 11V4M10 11V6.5M13 11V9" />
  </svg>
);
export const TransfersIcon = () => (
  <svg {...base}>
    <path d="M4.5 13.5v-10M2 6l2.5-2.5L7 6M11.5 2.5v10M9 10l2.5 2.5L14 10" />
  </svg>
);
export const PauseIcon = () => (
  <svg {...base}>
    <path d="M5.5 3.5v9M10.5 3.5v9" />
  </svg>
);
export const PlayIcon = () => (
  <svg {...base}>
    <path d="M5 3.2v9.6L12.5 8z" />
  </svg>
);
export const RetryIcon = () => (
  <svg {...base}>
    <path d="M13 8a5 5 0 1 1-1.5-3.6M13 2.5v2.5h-2.5" />
  </svg>
);
export const SettingsIcon = () => (
  <svg {...base}>
    <circle cx="8" cy="8" r="2" />
    <path d="M8 1.5v2M8 12.5v2M1.5 8h2M12.5 8h2M3.4 3.4l1.4 1.4M11.2 11.2l1.4 1.4M3.4 12.6l1.4-1.4M11.2 4.8l1.4-1.4" />
  </svg>
);
export const VideoIcon = () => (
  <svg {...base}>
    <rect x="1.5" y="3.5" width="9.5" height="9" rx="1" />
    <path d="m11 7 3.5-2v6L11 9" />
  </svg>
);
export const AudioIcon = () => (
  <svg {...base}>
    <path d="M2 7v2M4.75 4.5v7M7.5 2.5v11M10.25 5v6M13 6.5v3" />
  </svg>
);
/** A filled triangle for the play badge over a video's poster frame. */
export const PlayGlyph = ({ size = 10 }: { size?: number }) => (
  <svg width={size} height={size} viewBox="0 0 10 10" aria-hidden>
    <path d="M2.5 1.5v7L8.5 5z" fill="currentColor" />
  </svg>
);
/** Chevrons pointing up and down: "show the lines hidden here" (the merge view's collapsed lines). */
export const ExpandIcon = () => (
  <svg {...base}>
    <path d="m5 6 3-3 3 3M5 10l3 3 3-3" />
  </svg>
);
export const ArrowRightIcon = ({ size = 16 }: { size?: number }) => (
  <svg {...base} width={size} height={size}>
    <path d="M2.5 8h11M9.5 4l4 4-4 4" />
  </svg>
);
/** Job slots: a row of boxes, some filled (the Queue screen). */
/** A folder with an eye: a folder the app watches. */
export const WatchIcon = () => (
  <svg {...base}>
    <path d="M1.5 4.5v8h13v-7H7.5L6 4H2z" />
    <path d="M4.5 9.5s1.4-2 3.5-2 3.5 2 3.5 2-1.4 2-3.5 2-3.5-2-3.5-2z" />
    <circle cx="8" cy="9.5" r="0.8" fill="currentColor" />
  </svg>
);

export const QueueIcon = () => (
  <svg {...base}>
    <rect x="1.5" y="5" width="3.5" height="6" rx="0.8" fill="currentColor" />
    <rect x="6.25" y="5" width="3.5" height="6" rx="0.8" fill="currentColor" />
    <rect x="11" y="5" width="3.5" height="6" rx="0.8" />
  </svg>
);
