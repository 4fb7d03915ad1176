import { useState } from 'preact/hooks';
import { get } from '../api/client';
import type { DataAt } from '../api/types';
import { ActionForm, DataTable, ErrorNote, Loading, Screen } from '../components';
import { when } from '../format';
import { useLoad } from '../hooks';
import { href } from '../href';
import { AgentTabs } from './agent-tabs';
import { DayChart, type ChartSeries } from './insights-chart';

type Report = DataAt<'insights/agent'>;
type Measure = keyof Report['total'];

const DEFAULT_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;
const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10);

const count = new Intl.NumberFormat();
const dollars = new Intl.NumberFormat('en', { style: 'currency', currency: 'USD', maximumFractionDigits: 4 });
const whole = (value: number | null) => (value === null ? '—' : count.format(value));
const usd = (value: number | null) => (value === null ? '—' : dollars.format(value));
const seconds = (ms: number | null) => (ms === null ? '—' : `${count.format(Math.round(ms / 100) / 10)} s`);

/** A chart of the screen: its title, how its numbers read, and the measures it draws with their names. */
const chart = (title: string, format: (value: number | null) => string, lines: [Measure, string][]) => ({
  title,
  format,
  series: lines.map(([key, label]): ChartSeries<Measure> => ({ key, label })),
});

const CHARTS = [
  chart('Conversations', whole, [
    ['conversations', 'Conversations'],
    ['resolved', 'Resolved by the agent'],
    ['handed_off', 'Handed to people'],
    ['abandoned', 'Abandoned'],
  ]),
  chart('Answers and ratings', whole, [
    ['answers', 'Answers'],
    ['unanswered', 'Unanswered'],
    ['ratings_up', 'Rated up'],
    ['ratings_down', 'Rated down'],
  ]),
  chart('Tool calls and runs', whole, [
    ['tool_calls', 'Tool calls'],
    ['tool_failures', 'Tool failures'],
    ['runs', 'Runs'],
    ['runs_failed', 'Runs failed'],
  ]),
  chart('Cost', usd, [
    ['model_cost_usd', 'Model (tokens)'],
    ['platform_cost_usd', 'Platform (estimate)'],
  ]),
  chart('First response time (median)', seconds, [
    ['first_response_ms_agent', 'Agent'],
    ['first_response_ms_human', 'People'],
  ]),
];

/** The last 30 days, today (UTC, as the measures count days) included. */
function defaultRange() {
  const now = Date.now();
  return { from: isoDay(now - (DEFAULT_DAYS - 1) * DAY_MS), to: isoDay(now) };
}

/** How an agent does, per day over a range: charts with table views, knowledge gaps to answer, rating comments. */
export default function Insights({ params }: { params: string[] }) {
  const agentId = params[0]!;
  const [range, setRange] = useState(defaultRange);
  const [draft, setDraft] = useState(range);
  const report = useLoad(() => get('insights/agent', { agent_id: agentId, ...range }), [agentId, range.from, range.to]);
  const data = report.data;
  return (
    <Screen title="Insights" intro="How this agent does, day by day: what it resolved, what it could not answer, what visitors thought of it and what it cost.">
      <AgentTabs agentId={agentId} current="insights" />
      <ActionForm class="panel row range" onSubmit={() => setRange(draft)}>
        <label for="insights-from">From</label>
        <input
          id="insights-from"
          type="date"
          required
          value={draft.from}
          max={draft.to}
          onInput={(event) => setDraft({ ...draft, from: event.currentTarget.value })}
        />
        <label for="insights-to">To</label>
        <input
          id="insights-to"
          type="date"
          required
          value={draft.to}
          min={draft.from}
          onInput={(event) => setDraft({ ...draft, to: event.currentTarget.value })}
        />
        <button type="submit">Show</button>
        <span class="muted small">Days are counted in UTC; a range may cover about three months.</span>
      </ActionForm>
      {report.loading && !data ? <Loading what="insights" /> : null}
      <ErrorNote error={report.error} />
      {data ? (
        <>
          <Totals report={data} />
          <ByChannel channels={data.by_channel} />
          <section aria-labelledby="charts-title">
            <h2 id="charts-title">Per day</h2>
            {CHARTS.map((chart) => (
              <DayChart key={chart.title} title={chart.title} days={data.days} series={chart.series} format={chart.format} />
            ))}
          </section>
          <KnowledgeGaps gaps={data.knowledge_gaps} />
          <Comments comments={data.comments} />
        </>
      ) : null}
    </Screen>
  );
}

/** The range's totals, as figures. */
function Totals({ report }: { report: Report }) {
  const total = report.total;
  const figures: [string, Measure, string][] = [
    ['Conversations', 'conversations', whole(total.conversations)],
    ['Resolved by the agent', 'resolved', whole(total.resolved)],
    ['Handed to people', 'handed_off', whole(total.handed_off)],
    ['Abandoned', 'abandoned', whole(total.abandoned)],
    ['Still open', 'open', whole(total.open)],
    ['Unanswered questions', 'unanswered', whole(total.unanswered)],
    ['Rated up / down', 'ratings_up', `${whole(total.ratings_up)} / ${whole(total.ratings_down)}`],
    ['Tool failures', 'tool_failures', `${whole(total.tool_failures)} of ${whole(total.tool_calls)}`],
    ['Cost per conversation', 'cost_per_conversation_usd', usd(total.cost_per_conversation_usd)],
    ['Cost per run', 'cost_per_run_usd', usd(total.cost_per_run_usd)],
    ['First response, agent', 'first_response_ms_agent', seconds(total.first_response_ms_agent)],
    ['First response, people', 'first_response_ms_human', seconds(total.first_response_ms_human)],
  ];
  return (
    <section class="panel" aria-labelledby="totals-title">
      <h2 id="totals-title">
        {report.from} to {report.to}
      </h2>
      <dl class="figures">
        {figures.map(([label, key, text]) => (
          <div key={key} data-total={key}>
            <dt>{label}</dt>
            <dd>{text}</dd>
          </div>
        ))}
      </dl>
      <p class="muted small">
        Model cost: {report.pricing.model} at {usd(report.pricing.input_per_million_usd)} / {usd(report.pricing.output_per_million_usd)} per million input /
        output tokens. Platform cost is an estimate from our benchmarks: {usd(report.pricing.platform_per_conversation_usd)} a conversation,{' '}
        {usd(report.pricing.platform_per_run_usd)} a run. A conversation counts as resolved or abandoned after {report.quiet_minutes} quiet minutes.
      </p>
    </section>
  );
}

const CHANNEL_NAMES: Record<keyof Report['by_channel'], string> = { widget: 'Chat widget', email: 'E-mail' };

/** The range's conversations by the channel they came in by. */
function ByChannel({ channels }: { channels: Report['by_channel'] }) {
  return (
    <section aria-labelledby="channels-title">
      <h2 id="channels-title">By channel</h2>
      <DataTable
        caption="Conversations by channel"
        columns={['Channel', 'Conversations', 'Resolved', 'Handed off', 'Abandoned', 'Open', 'Answers', 'First response, agent']}
      >
        {(Object.keys(CHANNEL_NAMES) as (keyof Report['by_channel'])[]).map((channel) => {
          const measures = channels[channel];
          return (
            <tr key={channel} data-channel={channel}>
              <th scope="row">{CHANNEL_NAMES[channel]}</th>
              <td>{whole(measures.conversations)}</td>
              <td>{whole(measures.resolved)}</td>
              <td>{whole(measures.handed_off)}</td>
              <td>{whole(measures.abandoned)}</td>
              <td>{whole(measures.open)}</td>
              <td>{whole(measures.answers)}</td>
              <td>{seconds(measures.first_response_ms_agent)}</td>
            </tr>
          );
        })}
      </DataTable>
    </section>
  );
}

/** Questions the knowledge could not answer, each with a link to the Knowledge screen's answer form. */
function KnowledgeGaps({ gaps }: { gaps: Report['knowledge_gaps'] }) {
  return (
    <section aria-labelledby="gaps-title">
      <h2 id="gaps-title">Knowledge gaps</h2>
      <DataTable
        caption="Knowledge gaps, most asked first"
        columns={['Question', 'Asked', 'Last asked', '']}
        empty={gaps.length === 0 && 'No unanswered questions in this range.'}
      >
        {gaps.map((gap) => (
          <tr key={gap.id} data-gap-id={gap.id}>
            <td>
              <span lang={gap.language === 'und' ? undefined : gap.language}>{gap.text}</span>
            </td>
            <td>{gap.count === 1 ? 'once' : `${count.format(gap.count)} times`}</td>
            <td>{when(gap.last_asked_at)}</td>
            <td>
              <a href={href('knowledge', 'answer', gap.id)} aria-label={`Write an answer to ${gap.text}`}>
                Write an answer
              </a>
            </td>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}

/** Visitors' rating comments, newest first. */
function Comments({ comments }: { comments: Report['comments'] }) {
  return (
    <section aria-labelledby="comments-title">
      <h2 id="comments-title">Ratings with comments</h2>
      <DataTable caption="Rating comments, newest first" columns={['Rating', 'Comment', 'When']} empty={comments.length === 0 && 'No comments in this range.'}>
        {comments.map((comment) => (
          <tr key={comment.message_id}>
            <td>
              <span class={`badge ${comment.rating}`}>{comment.rating === 'up' ? 'Up' : 'Down'}</span>
            </td>
            <td class="break">{comment.comment}</td>
            <td>{when(comment.at)}</td>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}
