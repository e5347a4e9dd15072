import { fireEvent, screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import { useNavigation } from '../../state/navigation-store';

/**
 * Answers "Discard your changes?" (components/DiscardQuestion) once it shows: Cancel keeps what is
 * typed, Discard changes throws it away.
 */
export async function answerDiscard(answer: 'Cancel' | 'Discard changes'): Promise<void> {
  const dialog = await screen.findByRole('dialog', { name: 'Discard your changes?' });
  fireEvent.click(within(dialog).getByRole('button', { name: answer }));
}

/**
 * Leaves the screen by the sidebar (to Activity) with input unsaved: the navigation guard must ask,
 * naming `what`, and Stay must keep the screen `route`.
 */
export async function leaveAndStay(what: string, route: string): Promise<void> {
  fireEvent.click(screen.getByRole('button', { name: 'Activity' }));
  const leave = await screen.findByRole('dialog', { name: 'Leave without saving?' });
  expect(leave.textContent).toContain(what);
  fireEvent.click(within(leave).getByRole('button', { name: 'Stay' }));
  expect(useNavigation.getState().route.name).toBe(route);
}
