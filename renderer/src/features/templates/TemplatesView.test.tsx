import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '../../../../shared/result';
import { createFakeBridge, sampleTemplate } from '../../bridge/test/fake-bridge';
import { renderWithBridge } from '../../bridge/test/render-with-bridge';
import { useNavigation } from '../../state/navigation-store';
import { TemplatesView } from './TemplatesView';

/** Renders the view as App does: its list params come from the route. */
const Routed = () => {
  const route = useNavigation((s) => s.route);
  return route.name === 'templates' ? <TemplatesView selectedId={route.selectedId} list={route.list} /> : null;
};

describe('TemplatesView list params', () => {
  afterEach(cleanup);

  it('sends sort, order, built-ins and dates to templates:list, keeps them while paging, and puts them in the route', async () => {
    useNavigation.setState({ route: { name: 'templates' } });
    const items = Array.from({ length: 25 }, (_, i) => sampleTemplate({ id: `t${i}`, name: `T ${i}` }));
    const bridge = createFakeBridge({ 'templates:list': () => ok({ items, count: 60 }) });
    renderWithBridge(<Routed />, bridge);
    const lists = () => bridge.calls.filter((c) => c.channel === 'templates:list').map((c) => c.request);
    await waitFor(() => expect(lists().at(-1)).toMatchObject({ page: 1, sort: 'created', order: 'desc', includeBuiltin: 'none' }));

    fireEvent.change(screen.getByRole('combobox', { name: 'Sort by' }), { target: { value: 'name' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Built-in Templates' }), { target: { value: 'exclusively-latest' } });
    fireEvent.change(screen.getByLabelText('Created from'), { target: { value: '2026-01-01' } });
    await waitFor(() => expect(lists().at(-1)).toMatchObject({ page: 1, sort: 'name', includeBuiltin: 'exclusively-latest', fromdate: '2026-01-01 00:00:00' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Next' }));
    await waitFor(() => expect(lists().at(-1)).toMatchObject({ page: 2, sort: 'name', includeBuiltin: 'exclusively-latest', fromdate: '2026-01-01 00:00:00' }));
    expect(useNavigation.getState().route).toEqual({
      name: 'templates',
      list: { q: '', sort: 'name', order: 'desc', from: '2026-01-01', to: '', builtins: 'exclusively-latest', page: 2 },
    });

    // A filter change goes back to page 1; a reversed range says so.
    fireEvent.change(screen.getByLabelText('Created to'), { target: { value: '2025-12-31' } });
    expect(screen.getByRole('alert').textContent).toBe('The start date is after the end date: no Template can match.');
    await waitFor(() => expect(lists().at(-1)).toMatchObject({ page: 1, todate: '2025-12-31 23:59:59' }));
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(useNavigation.getState().route).toEqual({ name: 'templates' }));
  });
});
