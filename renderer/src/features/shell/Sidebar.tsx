import { useRef, type KeyboardEvent } from 'react';
import { ActivityIcon, ChartIcon, FolderIcon, GaugeIcon, KeyIcon, LinkIcon, LockIcon, QueueIcon, ServerIcon, WatchIcon, TemplateIcon, TransfersIcon, UploadIcon } from '../../components/Icons';
import { formatCount } from '../../lib/format';
import { useNavigation, type Route } from '../../state/navigation-store';
import { useTransfers } from '../transfers/transfer-store';
import './shell.css';

/**
 * Files still to go (sending or waiting), live; hidden when none. The short number is for the eye; the
 * button's name gets the words (an aria-label on a bare <span> is not announced reliably).
 */
const TransfersBadge = () => {
  const left = useTransfers((s) => (s.totals ? s.totals.filesActive + s.totals.filesQueued : 0));
  const paused = useTransfers((s) => s.totals?.paused ?? false);
  if (left === 0) return null;
  return (
    <>
      <span className={`nav-badge num${paused ? ' nav-badge-paused' : ''}`} data-testid="transfers-badge" aria-hidden="true">
        {left > 9_999 ? `${Math.floor(left / 1000)}k` : left.toLocaleString('en-US')}
      </span>
      <span className="visually-hidden">
        , {formatCount(left, 'file')} to go{paused ? ', paused' : ''}
      </span>
    </>
  );
};

/** Grouped as a media team, a producer and an admin look for them: the work, the account, the setup. */
const GROUPS = [
  {
    label: 'Work',
    items: [
      { name: 'upload', label: 'Upload', icon: <UploadIcon /> },
      { name: 'transfers', label: 'Transfers', icon: <TransfersIcon /> },
      { name: 'activity', label: 'Activity', icon: <ActivityIcon /> },
      { name: 'assets', label: 'Assets', icon: <FolderIcon /> },
      { name: 'watch-folders', label: 'Watch folders', icon: <WatchIcon /> },
    ],
  },
  {
    label: 'Account',
    items: [
      { name: 'usage', label: 'Usage', icon: <GaugeIcon /> },
      { name: 'statistics', label: 'Statistics', icon: <ChartIcon /> },
      { name: 'queue', label: 'Queue', icon: <QueueIcon /> },
    ],
  },
  {
    label: 'Setup',
    items: [
      { name: 'templates', label: 'Templates', icon: <TemplateIcon /> },
      { name: 'credentials', label: 'Credentials', icon: <KeyIcon /> },
      { name: 'auth-keys', label: 'Auth Keys', icon: <LockIcon /> },
      { name: 'cdn', label: 'CDN URLs', icon: <LinkIcon /> },
      { name: 'workspaces', label: 'Workspaces', icon: <ServerIcon /> },
    ],
  },
] as const;

type Item = (typeof GROUPS)[number]['items'][number];
const ITEMS: readonly Item[] = GROUPS.flatMap<Item>((g) => [...g.items]);

const isActive = (route: Route, name: Item['name']): boolean =>
  route.name === name || (name === 'activity' && (route.name === 'run' || route.name === 'assembly')) || (name === 'templates' && route.name === 'template-editor');

/** Tab reaches the list; arrow keys, Home and End move between items, as in a native sidebar. */
export const Sidebar = () => {
  const route = useNavigation((s) => s.route);
  const navigate = useNavigation((s) => s.navigate);
  const refs = useRef<(HTMLButtonElement | null)[]>([]);

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const last = ITEMS.length - 1;
    const target = { ArrowDown: index === last ? 0 : index + 1, ArrowUp: index === 0 ? last : index - 1, Home: 0, End: last }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    refs.current[target]?.focus();
  };

  return (
    <nav className="sidebar" aria-label="Main">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true" />
        Assemblyline
      </div>
      {GROUPS.map((group) => (
        <div key={group.label} className="nav-group">
          <div className="nav-group-label" id={`nav-group-${group.label}`}>
            {group.label}
          </div>
          <ul className="nav-list" aria-labelledby={`nav-group-${group.label}`}>
            {group.items.map((item) => {
              const index = ITEMS.indexOf(item);
              return (
                <li key={item.name}>
                  <button
                    ref={(el) => {
                      refs.current[index] = el;
                    }}
                    type="button"
                    className="nav-item"
                    aria-current={isActive(route, item.name) ? 'page' : undefined}
                    onClick={() => navigate({ name: item.name })}
                    onKeyDown={(e) => onKeyDown(e, index)}
                  >
                    {item.icon}
                    {item.label}
                    {item.name === 'transfers' && <TransfersBadge />}
                  </button>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </nav>
  );
};
