import type { KeyboardEvent } from 'react';
import { Button } from '../../components/Button';
import { canShift, monthLabel, shiftMonth } from './bill-month';

export interface MonthPickerProps {
  readonly month: string;
  readonly nowMs: number;
  readonly onChange: (month: string) => void;
}

/** Previous / month / next. ← and → step a month from anywhere in the group, never into the future. */
export const MonthPicker = ({ month, nowMs, onChange }: MonthPickerProps) => {
  const step = (delta: number) => {
    if (canShift(month, delta, nowMs)) onChange(shiftMonth(month, delta, nowMs));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const delta = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
    if (delta === undefined) return;
    event.preventDefault();
    step(delta);
  };
  return (
    <div className="month-picker" role="group" aria-label="Month" onKeyDown={onKeyDown} data-testid="month-picker">
      <Button size="sm" onClick={() => step(-1)} disabled={!canShift(month, -1, nowMs)} aria-label="Previous month" aria-keyshortcuts="ArrowLeft">
        ←
      </Button>
      <output className="month-label" aria-live="polite" data-testid="month-label" data-month={month}>
        {monthLabel(month)}
      </output>
      <Button size="sm" onClick={() => step(1)} disabled={!canShift(month, 1, nowMs)} aria-label="Next month" aria-keyshortcuts="ArrowRight">
        →
      </Button>
    </div>
  );
};
