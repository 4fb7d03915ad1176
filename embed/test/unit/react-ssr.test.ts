import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ChatPointerOverlay, ChatTrigger, ChatWidget, RichMessageRenderer, useChatWidget } from '../../src/react';

describe('React adapters render on the server (no window)', () => {
  it('renders every export without touching browser globals', () => {
    expect(typeof window).toBe('undefined');
    function Helpers() {
      const chat = useChatWidget();
      return createElement('span', null, typeof chat.open);
    }
    const html = renderToString(
      createElement(
        'div',
        null,
        createElement(ChatWidget, { agentId: '5eed0000-0000-4000-8000-0000000000a1' }),
        createElement(ChatPointerOverlay),
        createElement(ChatTrigger, { variant: 'button', label: 'Ask us', systemPrompt: 'SECRET-CONTEXT' }),
        createElement(ChatTrigger, { tooltip: 'Help' }),
        createElement(RichMessageRenderer, { text: 'See [Page:Pricing|/pricing] and <b>no html</b>' }),
        createElement(Helpers),
      ),
    );
    expect(html).toContain('data-service-chat');
    expect(html).toContain('Ask us');
    expect(html).toContain('aria-label="Help"');
    expect(html).toContain('scw-card-page');
    expect(html).toContain('&lt;b&gt;no html&lt;/b&gt;');
    expect(html).not.toContain('SECRET-CONTEXT');
    expect(html).toContain('function');
  });
});
