import { DEFAULT_AVAILABILITY, WEEKDAYS, type AvailabilitySettings, type Weekday } from '@service/shared/live-conversation';
import type { Deps } from '../../infra/deps';
import { putAvailabilityItem, readAvailabilityItem } from './availability-repository';

/**
 * When a workspace's teammates are available (issue 29): its business hours in its time zone and the away switch.
 * A workspace that never set them is available around the clock, with no claim timeout.
 */

export const readAvailability = async (deps: Deps, workspaceId: string): Promise<AvailabilitySettings> =>
  (await readAvailabilityItem(deps, workspaceId)) ?? DEFAULT_AVAILABILITY;

export async function setAvailability(deps: Deps, workspaceId: string, settings: AvailabilitySettings): Promise<AvailabilitySettings> {
  await putAvailabilityItem(deps, workspaceId, settings, deps.now());
  return settings;
}

const SHORT_DAYS: Record<string, Weekday> = { Mon: 'mon', Tue: 'tue', Wed: 'wed', Thu: 'thu', Fri: 'fri', Sat: 'sat', Sun: 'sun' };

/** The weekday and the wall-clock time (HH:MM) at `at` in `timeZone`. */
function wallClock(at: Date, timeZone: string): { day: Weekday; time: string } {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((candidate) => candidate.type === type)?.value ?? '';
  return { day: SHORT_DAYS[part('weekday')] ?? WEEKDAYS[0], time: `${part('hour')}:${part('minute')}` };
}

/** Whether teammates are available at `at`: not away, and within one of the intervals (none set: always). */
export function availableAt(settings: AvailabilitySettings, at: Date): boolean {
  if (settings.mode === 'away') return false;
  if (settings.hours === null) return true;
  const { day, time } = wallClock(at, settings.time_zone);
  // `to` is exclusive: 09:00–17:00 is available at 16:59, not at 17:00 (24:00 sorts after every time of the day).
  return settings.hours.some((interval) => interval.day === day && interval.from <= time && time < interval.to);
}
