import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatMoney } from '../../lib/money';

/**
 * The analytics tab's charts. recharts is large, so this module is only ever imported dynamically
 * (React.lazy in analytics-tab.tsx): it loads when the owner opens Analytics, never with the rest of
 * the app. Each chart has a text alternative beside it in the tab (the figures as a table or list),
 * so the charts are hidden from assistive technology and kept out of the tab order (no accessibility layer).
 */

const axis = { stroke: '#cbd5e1', fontSize: 12 };
const tooltip = { contentStyle: { background: '#0f172a', border: '1px solid rgba(255,255,255,0.15)', color: '#fff' } };

export interface MoneyRow {
  period: string;
  grossCents: number;
  platformFeeCents: number;
  proPayoutCents: number;
  heldCents: number;
}

const dollars = (cents: number) => formatMoney(cents, { whole: true });

/** Gross bookings, platform fees, pro payouts and held payouts per period, as grouped bars. */
export function MoneyChart({ rows }: { rows: readonly MoneyRow[] }) {
  return (
    <div className="h-72 w-full" aria-hidden="true">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart accessibilityLayer={false} data={[...rows]} margin={{ top: 8, right: 8, bottom: 8, left: 8 }}>
          <CartesianGrid stroke="rgba(255,255,255,0.08)" vertical={false} />
          <XAxis dataKey="period" tick={axis} stroke={axis.stroke} />
          <YAxis tickFormatter={dollars} tick={axis} stroke={axis.stroke} width={72} />
          <Tooltip {...tooltip} formatter={(value) => dollars(Number(value))} />
          <Legend wrapperStyle={{ color: '#e2e8f0' }} />
          <Bar dataKey="grossCents" name="Gross bookings" fill="#fbbf24" isAnimationActive={false} />
          <Bar dataKey="platformFeeCents" name="Platform fees" fill="#34d399" isAnimationActive={false} />
          <Bar dataKey="proPayoutCents" name="Pro payouts" fill="#60a5fa" isAnimationActive={false} />
          <Bar dataKey="heldCents" name="Held payouts" fill="#f87171" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

/** One horizontal bar per row (the funnel's steps, the trades' no-pro shares). */
export function BarsChart({ rows, unit }: { rows: readonly { name: string; value: number }[]; unit: 'count' | 'percent' }) {
  const format = (value: number) => (unit === 'percent' ? `${Math.round(value * 1000) / 10}%` : String(value));
  return (
    <div className="w-full" style={{ height: Math.max(120, rows.length * 40 + 40) }} aria-hidden="true">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart accessibilityLayer={false} data={[...rows]} layout="vertical" margin={{ top: 8, right: 24, bottom: 8, left: 8 }}>
          <CartesianGrid stroke="rgba(255,255,255,0.08)" horizontal={false} />
          <XAxis type="number" tickFormatter={format} tick={axis} stroke={axis.stroke} allowDecimals={unit === 'percent'} />
          <YAxis type="category" dataKey="name" tick={axis} stroke={axis.stroke} width={120} />
          <Tooltip {...tooltip} formatter={(value) => format(Number(value))} />
          <Bar dataKey="value" fill="#fbbf24" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
