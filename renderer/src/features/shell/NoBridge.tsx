import { EmptyState } from '../../components/EmptyState';
import './shell.css';

/** The page was opened outside the app (no bridge): say so instead of showing a broken UI. */
export const NoBridge = () => (
  <div className="no-bridge">
    <EmptyState title="Not connected to Assemblyline">
      This page is the app's window and needs the Assemblyline app behind it. Start the app with <code>npm start</code> and open the address it prints.
    </EmptyState>
  </div>
);
