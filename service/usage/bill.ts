import type { PriceList } from './price-list';
import { UPLOAD_KEY } from './usage-record';

/** GB as the bill counts it: 1024³ bytes. */
export const GB = 1024 ** 3;
const DAY_MS = 86_400_000;

export interface BillMonth {
  year: number;
  /** 1..12 */
  month: number;
}

/** `YYYY-MM` (what PHP/PY send with `%d-%02d`), from 2000-01 on; null for anything else. Pure. */
export function parseBillMonth(text: string): BillMonth | null {
  const m = /^(\d{4})-(\d{2})$/.exec(text);
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  return year >= 2000 && month >= 1 && month <= 12 ? { year, month } : null;
}

export const monthStartMs = (m: BillMonth): number => Date.UTC(m.year, m.month - 1, 1);
export const monthEndMs = (m: BillMonth): number => Date.UTC(m.year, m.month, 1);

/** Bytes per day of the month (day index from the 1st) and robot, `/assemblies` = uploads; plus Assemblies per day. */
export interface MonthUsage {
  robotDays: readonly { k: number; robot: string; bytes: number }[];
  assemblyDays: readonly { k: number; assemblies: number }[];
}

const cents = (n: number): number => Math.round(n * 100) / 100;
const pad = (n: number): string => String(n).padStart(2, '0');

/**
 * `BILL_FOUND` for one month (service-facts.md §7 fields, plus `days` for the Usage chart), from the usage
 * rows of the month and the price list. Per robot: rawGb = its input bytes / 1024³, freeGb = the free GB
 * the price list gives it (at most rawGb), gb = (rawGb − freeGb) × factor — the GB billed — and
 * gbFactorApplied says whether the factor changed it (factor ≠ 1); used_gb is the sum of gb. Money is rounded to cents, GB are not rounded. Pure.
 */
export function computeBill(p: PriceList, m: BillMonth, usage: MonthUsage, nowMs: number): Record<string, unknown> {
  const start = monthStartMs(m);
  const end = monthEndMs(m);
  const factorOf = (robot: string): number => p.robot_factors[robot] ?? p.default_factor;
  const bytesPerRobot = new Map<string, number>([[UPLOAD_KEY, 0]]);
  for (const r of usage.robotDays) bytesPerRobot.set(r.robot, (bytesPerRobot.get(r.robot) ?? 0) + r.bytes);
  const robots: Record<string, { rawGb: number; gb: number; freeGb: number; gbFactorApplied: boolean; factor: number }> = {};
  for (const [robot, bytes] of [...bytesPerRobot].sort(([a], [b]) => a.localeCompare(b))) {
    const rawGb = bytes / GB;
    const freeGb = Math.min(rawGb, p.free_gb[robot] ?? 0);
    const factor = factorOf(robot);
    robots[robot] = { rawGb, gb: (rawGb - freeGb) * factor, freeGb, gbFactorApplied: factor !== 1, factor };
  }
  const usedGb = Object.values(robots).reduce((n, r) => n + r.gb, 0);
  const additionalGb = Math.max(0, usedGb - p.plan.gb_included);
  const additionalFee = cents(additionalGb * p.plan.price_per_gb);
  const subTotal = cents(p.plan.price_per_month + additionalFee);
  const reverseCharge = p.customer.reverse_charge_vat === true;
  const vat = reverseCharge ? 0 : cents(subTotal * p.vat_rate);
  // Days up to today: all of a past month, none of a future one.
  const lastDay = Math.min(Math.round((end - start) / DAY_MS), Math.max(0, Math.floor((nowMs - start) / DAY_MS) + 1));
  const dayGb = new Array<number>(lastDay).fill(0);
  const dayAssemblies = new Array<number>(lastDay).fill(0);
  for (const r of usage.robotDays) if (r.k < lastDay) dayGb[r.k]! += (r.bytes / GB) * factorOf(r.robot);
  for (const d of usage.assemblyDays) if (d.k < lastDay) dayAssemblies[d.k] = d.assemblies;
  const current = nowMs >= start && nowMs < end;
  const past = nowMs >= end;
  const c = p.customer;
  return {
    ok: 'BILL_FOUND',
    invoice_id: past ? `local-${m.year}-${pad(m.month)}` : null,
    to: c.to ?? null,
    email: c.email ?? null,
    month: `${m.year}-${pad(m.month)}`,
    created: new Date(past ? end : current ? nowMs : start).toISOString(),
    plan: { ...p.plan },
    used_gb: usedGb,
    additional_gb: additionalGb,
    additional_gb_fee: additionalFee,
    company: c.company ?? null,
    address_1: c.address_1 ?? null,
    address_2: c.address_2 ?? null,
    zip: c.zip ?? null,
    city: c.city ?? null,
    state: c.state ?? null,
    country: c.country ?? null,
    robots,
    sub_total: subTotal,
    reward_discount_percent: 0,
    reward_discount: 0,
    signup_discount_percent: 0,
    signup_discount: 0,
    credit: 0,
    bill_limit: p.bill_limit,
    vat_rate: p.vat_rate,
    vat,
    vat_id: c.vat_id ?? null,
    reverse_charge_vat: reverseCharge,
    total: cents(subTotal + vat),
    days: dayGb.map((gb, i) => ({ date: `${m.year}-${pad(m.month)}-${pad(i + 1)}`, gb, assemblies: dayAssemblies[i]! })),
  };
}
