import { describe, expect, it } from 'vitest';
import { plainMarkers } from '../../src/surfaces/mail/plain-markers';

describe('an answer by e-mail', () => {
  it('carries no widget markers: a link keeps its address, a page its label, an action nothing', () => {
    expect(plainMarkers('Our team can answer it: [Page:Contact|/contact] [Action:Talk to a person|handoff]')).toBe('Our team can answer it: Contact');
    expect(plainMarkers('See [Link:the guide|https://help.example/guide] [1].\n\nSources:\n[1] Guide: https://help.example/guide')).toBe(
      'See the guide (https://help.example/guide) [1].\n\nSources:\n[1] Guide: https://help.example/guide',
    );
  });
});
