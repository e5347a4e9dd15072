import { describe, expect, it } from 'vitest';
import { describeOutcome, uploadOutcomes } from './upload-outcomes';

const uploads = [
  { id: 'u1', name: 'photo.jpg', size: 1000 },
  { id: 'u2', name: 'empty.jpg', size: 0 },
  { id: 'u3', name: 'notes.txt', size: 10 },
  { id: 'u4', name: 'other.jpg', size: 5 },
];

describe('uploadOutcomes', () => {
  it('counts results per upload and says at each file why it produced none', () => {
    const outcomes = uploadOutcomes({
      uploads,
      results: { resized: [{ id: 'r1', original_id: 'u1' }], thumbs: [{ id: 'r2', original_id: ['u1'] }] },
      warnings: [
        { level: 'warning', msg: 'Step "resized" skipped "empty.jpg": Empty file (0 bytes): nothing to resize', step: 'resized', original_id: 'u2', reason: 'Empty file (0 bytes): nothing to resize' },
        { level: 'warning', msg: 'x', step: 'thumbs', original_id: 'u2', reason: 'Empty file (0 bytes): nothing to resize' },
        // The real service's plain {level, msg}: matched by the quoted name.
        { level: 'notice', msg: 'Skipped "notes.txt": not an image' },
      ],
    });
    expect(outcomes.map((o) => [o.name, o.results, o.reasons])).toEqual([
      ['photo.jpg', 2, []],
      ['empty.jpg', 0, ['Empty file (0 bytes): nothing to resize (step "resized")', 'Empty file (0 bytes): nothing to resize (step "thumbs")']],
      ['notes.txt', 0, ['Skipped "notes.txt": not an image']],
      ['other.jpg', 0, []],
    ]);
    expect(outcomes.map((o) => describeOutcome(o, 'completed').text)).toEqual([
      '2 results',
      'No result: Empty file (0 bytes): nothing to resize (step "resized"); Empty file (0 bytes): nothing to resize (step "thumbs")',
      'No result: Skipped "notes.txt": not an image',
      'No result: no step produced a file from it',
    ]);
  });

  it('says how the Assembly ended for a file without results or reasons', () => {
    const none = { id: 'u', name: 'a.jpg', size: 1, results: 0, reasons: [], warned: false };
    // A filter declining a file is what the steps asked for: said plainly, not as a warning.
    expect(describeOutcome({ ...none, reasons: ['Declined by the filter (step "images")'] }, 'completed')).toEqual({ text: 'No result: Declined by the filter (step "images")', tone: 'neutral' });
    expect(describeOutcome(none, 'failed')).toEqual({ text: 'No result: the Assembly failed first', tone: 'neutral' });
    expect(describeOutcome(none, 'canceled').text).toBe('No result: the Assembly was canceled first');
  });

  it('says at the file a failed Assembly failed on', () => {
    const [failed, other] = uploadOutcomes({ error: 'FILE_FILTER_DECLINED_FILE', message: 'Too big.', step: 'small_only', original_id: 'u1', uploads: uploads.slice(0, 2) });
    expect(describeOutcome(failed!, 'failed')).toEqual({ text: 'No result: the step "small_only" failed on it: Too big.', tone: 'warning' });
    expect(describeOutcome(other!, 'failed').text).toBe('No result: the Assembly failed first');
  });

  it('is empty without uploads', () => {
    expect(uploadOutcomes(null)).toEqual([]);
    expect(uploadOutcomes({ ok: 'ASSEMBLY_UPLOADING' })).toEqual([]);
  });
});
