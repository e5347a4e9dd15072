import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { RadioCards } from './RadioCards';

const Choice = () => {
  const [value, setValue] = useState<'a' | 'b'>('a');
  return (
    <RadioCards
      name="choice"
      legend="How it works"
      value={value}
      onChange={setValue}
      options={[
        { value: 'a', label: 'Alpha', description: 'The first way.' },
        { value: 'b', label: 'Beta', description: 'The second way.' },
      ]}
    />
  );
};

describe('RadioCards', () => {
  afterEach(cleanup);

  it('is a radiogroup named by its legend; each radio named by its label, described by its line, and picks one', () => {
    render(<Choice />);
    const group = screen.getByRole('radiogroup', { name: 'How it works' });
    const alpha = screen.getByRole('radio', { name: 'Alpha' });
    const beta = screen.getByRole('radio', { name: 'Beta' });
    expect(group.contains(alpha) && group.contains(beta)).toBe(true);
    expect(beta).toHaveProperty('name', 'choice');
    expect(beta.getAttribute('aria-describedby') && document.getElementById(beta.getAttribute('aria-describedby')!)?.textContent).toBe('The second way.');
    expect((alpha as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByText('The second way.'));
    expect((beta as HTMLInputElement).checked).toBe(true);
    expect((alpha as HTMLInputElement).checked).toBe(false);
  });
});
