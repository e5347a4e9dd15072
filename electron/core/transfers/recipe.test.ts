import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../../shared/api/presets';
import { recipeOf } from './recipe';

describe('recipeOf', () => {
  it('names a drop by the name the page gave, else by its preset, Template or as custom steps', () => {
    expect(recipeOf({ steps: { a: { robot: '/upload/handle' } } }, '  Make 256 px thumbnails ')).toBe('Make 256 px thumbnails');
    const preset = PRESETS[0]!;
    // Key order does not matter: the same steps are the same preset.
    const reordered = Object.fromEntries(Object.entries(preset.steps).reverse());
    expect(recipeOf({ steps: reordered })).toBe(preset.label);
    expect(recipeOf({ template_id: 'abc123' })).toBe('Template abc123');
    expect(recipeOf({ steps: { ':original': { robot: '/upload/handle' }, x: { robot: '/image/resize', use: ':original', width: 10 } } })).toBe('Custom steps');
  });
});
