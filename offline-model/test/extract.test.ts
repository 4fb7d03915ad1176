import { describe, expect, it } from 'vitest';
import { extractValues } from '../src/extract';

describe('offline model: value extraction', () => {
  it('finds names in order of appearance, without leading verbs, and Turkish names', () => {
    expect(extractValues('Send it to Jane. Then call Mark Twain at 9:05').names).toEqual(['Jane', 'Mark Twain']);
    expect(extractValues('Add Jane Doe to my contacts').names).toEqual(['Jane Doe']);
    expect(extractValues("Ayşe Yılmaz'ı kişilere ekle").names).toEqual(['Ayşe Yılmaz']);
    expect(extractValues('Book a meeting on Monday').names).toEqual([]);
  });

  it('keeps dates, times and phone numbers apart', () => {
    const values = extractValues('Call +90 532 123 45 67 on 2025-03-14 at 15:30, invoice 42');
    expect(values.phones).toEqual(['+90 532 123 45 67']);
    expect(values.dates).toEqual(['2025-03-14']);
    expect(values.times).toEqual(['15:30']);
    expect(values.dateTimes).toEqual(['2025-03-14T15:30']);
    expect(values.numbers).toEqual([42]);
    expect(extractValues('Starts 2025-03-14T09:00+03:00').dateTimes).toEqual(['2025-03-14T09:00+03:00']);
  });

  it('separates links, site paths, selectors and quoted text', () => {
    const values = extractValues('Visit https://example.com/a, then /pricing or #signup .card, subject "Hi there"');
    expect(values.urls).toEqual(['https://example.com/a']);
    expect(values.paths).toEqual(['/pricing']);
    expect(values.selectors).toEqual(['#signup', '.card']);
    expect(values.quoted).toEqual(['Hi there']);
    expect(values.emails).toEqual([]);
  });
});
