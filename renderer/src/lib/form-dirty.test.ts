import { describe, expect, it } from 'vitest';
import { isDirty } from './form-dirty';

describe('isDirty', () => {
  it('is clean when every value is as the form opened', () => {
    expect(isDirty({ name: 'a', on: true, scopes: ['x', 'y'], values: { host: 'h' } }, { name: 'a', on: true, scopes: ['x', 'y'], values: { host: 'h' } })).toBe(false);
  });

  it('is dirty when a text, a checkbox, a list or a nested field changed', () => {
    expect(isDirty({ name: 'a' }, { name: 'ab' })).toBe(true);
    expect(isDirty({ on: false }, { on: true })).toBe(true);
    expect(isDirty({ scopes: ['x'] }, { scopes: ['x', 'y'] })).toBe(true);
    expect(isDirty({ values: { host: 'h' } }, { values: { host: 'h2' } })).toBe(true);
  });

  it('an emptied field is the same as one never filled (typing then deleting leaves it clean)', () => {
    expect(isDirty({ values: {} }, { values: { password: '' } })).toBe(false);
    expect(isDirty({ values: {} }, { values: { password: 's' } })).toBe(true);
  });
});
