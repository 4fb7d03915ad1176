import { useEffect, useState } from 'preact/hooks';
import { WEEKDAYS, type AvailabilitySettings, type Weekday } from '@service/shared/live-conversation';
import { get, post } from '../api/client';
import { ActionForm, ErrorNote, Loading, SaveRow } from '../components';
import { useAction, useLoad } from '../hooks';
import { useApp } from '../session';

const DAY_LABELS: Record<Weekday, string> = { mon: 'Monday', tue: 'Tuesday', wed: 'Wednesday', thu: 'Thursday', fri: 'Friday', sat: 'Saturday', sun: 'Sunday' };

/** The form's view of the settings: one interval a day (the API takes several), hours off meaning around the clock. */
interface Form {
  mode: AvailabilitySettings['mode'];
  time_zone: string;
  useHours: boolean;
  days: Record<Weekday, { on: boolean; from: string; to: string }>;
  /** Minutes as typed; empty: no claim timeout. */
  timeout: string;
}

function toForm(settings: AvailabilitySettings): Form {
  const days = Object.fromEntries(
    WEEKDAYS.map((day) => {
      const interval = settings.hours?.find((candidate) => candidate.day === day);
      return [day, { on: interval !== undefined, from: interval?.from ?? '09:00', to: interval?.to ?? '17:00' }];
    }),
  ) as Form['days'];
  return {
    mode: settings.mode,
    time_zone: settings.time_zone,
    useHours: settings.hours !== null,
    days,
    timeout: settings.claim_timeout_minutes === null ? '' : String(settings.claim_timeout_minutes),
  };
}

const toSettings = (form: Form): AvailabilitySettings => ({
  mode: form.mode,
  time_zone: form.time_zone.trim(),
  hours: form.useHours ? WEEKDAYS.filter((day) => form.days[day].on).map((day) => ({ day, from: form.days[day].from, to: form.days[day].to })) : null,
  claim_timeout_minutes: form.timeout.trim() === '' ? null : Number(form.timeout),
});

/**
 * The workspace's availability (conversations/availability): business hours in a time zone, the away switch and the
 * claim timeout. When nobody is available, or nobody claims a conversation in time, the agent asks the visitor for an
 * e-mail address. Owners and admins change it (manage); others see it.
 */
export function AvailabilitySection() {
  const app = useApp();
  const loaded = useLoad(() => get('conversations/availability'), []);
  const [form, setForm] = useState<Form | null>(null);
  const [saved, setSaved] = useState(0);
  useEffect(() => {
    if (loaded.data) setForm(toForm(loaded.data.availability));
  }, [loaded.data]);
  const save = useAction(async () => {
    if (!form) return;
    const answer = await post('conversations/availability_set', toSettings(form));
    setForm(toForm(answer.availability));
    setSaved((count) => count + 1);
    loaded.reload();
  });
  const change = (next: Partial<Form>) => form && setForm({ ...form, ...next });
  const changeDay = (day: Weekday, next: Partial<Form['days'][Weekday]>) =>
    form && setForm({ ...form, days: { ...form.days, [day]: { ...form.days[day], ...next } } });
  return (
    <details class="card availability">
      <summary>
        Availability{' '}
        {loaded.data ? (
          <span class="muted">
            · {loaded.data.available_now ? 'teammates are available now' : 'nobody is available now: visitors are asked for an e-mail address'}
          </span>
        ) : null}
      </summary>
      {loaded.loading && !form ? <Loading what="availability" /> : null}
      <ErrorNote error={loaded.error} />
      {form ? (
        <ActionForm onSubmit={() => save.run()}>
          <fieldset disabled={!app.may('manage')}>
            <legend>When teammates answer</legend>
            <label for="a-mode">Availability</label>
            <select id="a-mode" value={form.mode} onChange={(event) => change({ mode: event.currentTarget.value as Form['mode'] })}>
              <option value="auto">By business hours</option>
              <option value="away">Away (nobody is available)</option>
            </select>
            <label for="a-zone">Time zone (e.g. Europe/Istanbul)</label>
            <input id="a-zone" value={form.time_zone} maxLength={64} onInput={(event) => change({ time_zone: event.currentTarget.value })} />
            <label>
              <input type="checkbox" checked={form.useHours} onChange={(event) => change({ useHours: event.currentTarget.checked })} /> Only during business
              hours (off: around the clock)
            </label>
            {form.useHours ? (
              <table class="hours">
                <caption class="sr-only">Business hours</caption>
                <tbody>
                  {WEEKDAYS.map((day) => (
                    <tr key={day}>
                      <th scope="row">
                        <label>
                          <input type="checkbox" checked={form.days[day].on} onChange={(event) => changeDay(day, { on: event.currentTarget.checked })} />{' '}
                          {DAY_LABELS[day]}
                        </label>
                      </th>
                      <td>
                        <input
                          type="time"
                          aria-label={`${DAY_LABELS[day]} from`}
                          value={form.days[day].from}
                          disabled={!form.days[day].on}
                          onInput={(event) => changeDay(day, { from: event.currentTarget.value })}
                        />
                        {' – '}
                        <input
                          type="time"
                          aria-label={`${DAY_LABELS[day]} to`}
                          value={form.days[day].to}
                          disabled={!form.days[day].on}
                          onInput={(event) => changeDay(day, { to: event.currentTarget.value })}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
            <label for="a-timeout">Claim timeout in minutes (empty: wait without a limit)</label>
            <input id="a-timeout" type="number" min={1} max={1440} value={form.timeout} onInput={(event) => change({ timeout: event.currentTarget.value })} />
          </fieldset>
          <SaveRow permission="manage" busy={save.busy} saved={saved > 0} error={save.error} />
        </ActionForm>
      ) : null}
    </details>
  );
}
