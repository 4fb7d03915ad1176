import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A hostile OpenAI-compatible model on 127.0.0.1 (MODEL=openai:<url>#hostile): what it does depends on a word in the
// visitor's last message. "navigate": ten navigate tool calls, off-site and destructive; "delete": one navigation to
// /en/account/delete; "tabs": links hidden behind
// tab characters; "long": a 5,000-character reply; "hang": one word, then a stream that never ends.

export const HOSTILE = {
  navigations: ['https://evil.example/1', '/en/account/delete', ...Array.from({ length: 8 }, (_, i) => `https://evil.example/${i + 2}`)],
  tabLinks: 'See [Link:docs|/\t/evil.example/tab] and [Page:guide|/\t/evil.example/docs] or [Page:Pricing|/pricing].',
  longReply: 'a'.repeat(4990) + ' end.word',
};

interface ChatCompletionRequest {
  messages: { role: string; content?: unknown }[];
}

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'hostile', object: 'chat.completion.chunk', created: 0, model: 'hostile', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

function text(response: ServerResponse, content: string, pieces = 10): void {
  const size = Math.ceil(content.length / pieces);
  for (let at = 0; at < content.length; at += size) response.write(chunk({ content: content.slice(at, at + size) }));
  response.end(chunk({}, 'stop') + 'data: [DONE]\n\n');
}

function toolCalls(response: ServerResponse, hrefs: string[]): void {
  hrefs.forEach((href, index) =>
    response.write(
      chunk({ tool_calls: [{ index, id: `call_${index}`, type: 'function', function: { name: 'navigate', arguments: JSON.stringify({ href }) } }] }),
    ),
  );
  response.end(chunk({}, 'tool_calls') + 'data: [DONE]\n\n');
}

function reply(request: ChatCompletionRequest, response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  if (request.messages.some((message) => message.role === 'tool')) return text(response, 'I opened the pages for you.', 1);
  const last = String(request.messages.filter((message) => message.role === 'user').at(-1)?.content ?? '');
  if (last.includes('navigate')) return toolCalls(response, HOSTILE.navigations);
  if (last.includes('delete')) return toolCalls(response, ['/en/account/delete']);
  if (last.includes('tabs')) return text(response, HOSTILE.tabLinks, 1);
  if (last.includes('long')) return text(response, HOSTILE.longReply);
  if (last.includes('hang')) return void response.write(chunk({ content: 'Thinking' }));
  text(response, `You said: ${last.slice(0, 200)}`, 1);
}

export interface HostileModel {
  /** The MODEL setting that points the platform at this server. */
  setting: string;
  close(): Promise<void>;
}

export async function startHostileModel(): Promise<HostileModel> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (data: Buffer) => chunks.push(data));
    request.on('end', () => reply(JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatCompletionRequest, response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    setting: `openai:http://127.0.0.1:${port}/v1#hostile`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
