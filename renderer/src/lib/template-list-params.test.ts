import { describe, expect, it } from 'vitest';
import { changeTemplateList, DEFAULT_TEMPLATE_LIST, templateListFromQuery, templateListToQuery } from './template-list-params';

describe('the Templates list params in the URL', () => {
  it('round-trips every param the service takes, and writes nothing for the defaults', () => {
    const params = { q: 'thumb%', sort: 'name', order: 'asc', from: '2026-01-01', to: '2026-02-28', builtins: 'exclusively-latest', page: 3 } as const;
    const query = templateListToQuery(params);
    expect(query).toBe('q=thumb%25&sort=name&order=asc&from=2026-01-01&to=2026-02-28&builtins=exclusively-latest&page=3');
    expect(templateListFromQuery(new URLSearchParams(query))).toEqual(params);
    expect(templateListToQuery(DEFAULT_TEMPLATE_LIST)).toBe('');
  });

  it('reads anything unknown or malformed as the default', () => {
    expect(templateListFromQuery(new URLSearchParams('sort=size&order=up&from=yesterday&to=2026-13-01&builtins=some&page=-2'))).toEqual(DEFAULT_TEMPLATE_LIST);
    expect(templateListFromQuery(new URLSearchParams('page=1.5')).page).toBe(1);
  });

  it('starts again at page 1 when a filter changes, and keeps the filters when the page changes', () => {
    const on3 = { ...DEFAULT_TEMPLATE_LIST, sort: 'name', page: 3 } as const;
    expect(changeTemplateList(on3, { order: 'asc' })).toEqual({ ...on3, order: 'asc', page: 1 });
    expect(changeTemplateList(on3, { page: 4 })).toEqual({ ...on3, page: 4 });
    expect(changeTemplateList(on3, { sort: 'name' })).toEqual(on3);
  });
});
