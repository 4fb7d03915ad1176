import { ApiError } from './api/client';

// How the dashboard writes errors and times.

export const errorText = (error: unknown): string =>
  error instanceof ApiError
    ? `${error.message}${error.code !== 'HTTP_ERROR' ? ` (${error.code})` : ''}`
    : error instanceof Error
      ? error.message
      : String(error);

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
export const when = (iso: string | null | undefined): string => (iso ? dateFormat.format(new Date(iso)) : '—');
