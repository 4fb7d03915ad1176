import { get } from '../api/client';
import { DataTable, ErrorNote, Loading, Screen } from '../components';
import { useLoad } from '../hooks';

async function loadUsage() {
  const [usage, billing, agents] = await Promise.all([get('usage/tokens', {}), get('billing/get'), get('agents/list')]);
  return { usage, billing, names: new Map(agents.agents.map((agent) => [agent.id, agent.name])) };
}

const number = new Intl.NumberFormat();

export default function Usage() {
  const report = useLoad(loadUsage, []);
  const data = report.data;
  const share = data && data.billing.token_limit > 0 ? Math.min(1, data.billing.tokens_used / data.billing.token_limit) : 0;
  return (
    <Screen title="Usage & billing" intro="Tokens your agents used, by day and by agent, against your plan's allowance.">
      {report.loading && !data ? <Loading what="usage" /> : null}
      <ErrorNote error={report.error} />
      {data ? (
        <>
          <section class="panel" aria-labelledby="plan-title">
            <h2 id="plan-title">Plan: {data.billing.plan}</h2>
            <p>
              {number.format(data.billing.tokens_used)} of {number.format(data.billing.token_limit)} tokens used ({Math.round(share * 100)}%),{' '}
              {number.format(data.billing.tokens_remaining)} left until {data.billing.period.end}. {number.format(data.billing.runs)} runs this period.
            </p>
            <progress max={data.billing.token_limit || 1} value={data.billing.tokens_used} aria-label="Allowance used" />
          </section>
          <section aria-labelledby="daily-title">
            <h2 id="daily-title">Tokens per day</h2>
            <DayChart days={everyDay(data.usage.from, data.usage.to, data.usage.by_day)} />
          </section>
          <section aria-labelledby="agents-title">
            <h2 id="agents-title">Per agent</h2>
            <DataTable
              caption="Tokens per agent"
              columns={['Agent', 'Runs', 'Input', 'Output', 'Total']}
              empty={data.usage.by_agent.length === 0 && 'No runs in this period yet.'}
            >
              {data.usage.by_agent.map((row) => (
                <tr key={row.agent_id}>
                  <td>{data.names.get(row.agent_id) ?? row.agent_id}</td>
                  <td>{number.format(row.runs)}</td>
                  <td>{number.format(row.input_tokens)}</td>
                  <td>{number.format(row.output_tokens)}</td>
                  <td>{number.format(row.total_tokens)}</td>
                </tr>
              ))}
            </DataTable>
          </section>
        </>
      ) : null}
    </Screen>
  );
}

/** Every day of the period, days without use at zero (the report lists only days with use). */
function everyDay(from: string, to: string, days: { date: string; total_tokens: number }[]) {
  const used = new Map(days.map((day) => [day.date, day.total_tokens]));
  const all: { date: string; total_tokens: number }[] = [];
  for (let day = new Date(`${from}T00:00:00Z`); day <= new Date(`${to}T00:00:00Z`) && all.length < 400; day.setUTCDate(day.getUTCDate() + 1)) {
    const date = day.toISOString().slice(0, 10);
    all.push({ date, total_tokens: used.get(date) ?? 0 });
  }
  return all;
}

/** Bars drawn by hand in SVG (no chart library, no inline styles: classes and geometry attributes only). */
function DayChart({ days }: { days: { date: string; total_tokens: number }[] }) {
  const width = 600;
  const height = 160;
  const bottom = 20;
  const max = Math.max(1, ...days.map((day) => day.total_tokens));
  const slot = days.length ? width / days.length : width;
  const total = days.reduce((sum, day) => sum + day.total_tokens, 0);
  return (
    <svg
      class="chart"
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={`Tokens per day, ${days[0]?.date ?? ''} to ${days.at(-1)?.date ?? ''}: ${number.format(total)} in all, at most ${number.format(max)} a day`}
    >
      <line x1="0" y1={height - bottom} x2={width} y2={height - bottom} class="axis" />
      {days.map((day, index) => {
        const barHeight = ((height - bottom - 10) * day.total_tokens) / max;
        return (
          <g key={day.date}>
            <rect class="bar" x={index * slot + slot * 0.15} y={height - bottom - barHeight} width={slot * 0.7} height={barHeight}>
              <title>
                {day.date}: {number.format(day.total_tokens)} tokens
              </title>
            </rect>
            {days.length <= 14 || index % Math.ceil(days.length / 10) === 0 ? (
              <text class="tick" x={Math.min(width - 16, Math.max(16, index * slot + slot / 2))} y={height - 5}>
                {day.date.slice(5)}
              </text>
            ) : null}
          </g>
        );
      })}
      <text class="tick max" x="4" y="12">
        {number.format(max)}
      </text>
    </svg>
  );
}
