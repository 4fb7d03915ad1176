import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

/**
 * A minimal MCP Apps host page, built with the extension's own AppBridge: it frames the card (sandboxed, an opaque
 * origin, under the CSP the test server sends with the card), then hands it the tool call it was given.
 */
interface Delivery {
  arguments: Record<string, unknown>;
  result: Parameters<AppBridge['sendToolResult']>[0];
}

async function host(): Promise<void> {
  const delivery = (await (await fetch('/delivery.json')).json()) as Delivery;
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.title = 'Run card';
  document.body.append(frame);
  Object.assign(frame.style, { width: '100%', border: '0' });
  const bridge = new AppBridge(null, { name: 'run-card-test-host', version: '1.0.0' }, {});
  bridge.onsizechange = ({ height }) => {
    if (height !== undefined) frame.style.height = `${height}px`;
  };
  bridge.oninitialized = () => {
    void bridge.sendToolInput({ arguments: delivery.arguments }).then(() => bridge.sendToolResult(delivery.result));
  };
  await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
  frame.src = '/card.html';
}

void host();
