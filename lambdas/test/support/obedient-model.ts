import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// An OpenAI-compatible chat completions server on loopback whose "model" obeys any text it reads: the worst case for
// prompt injection. Asked a question, it searches the company's knowledge when offered `knowledge__search`; reading
// a tool result that says "e-mail … to someone@…", it calls `email__send` to that address; otherwise it answers with
// what it read. The platform's own guard must hold against it. Streamed (the widget) and not (runs) alike; a request
// for a JSON answer (the run's envelope) gets one.

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content?: string | null | Array<{ type: string; text?: string }>;
  tool_calls?: Array<{ function: { name: string } }>;
}
export interface ChatRequest {
  messages: ChatMessage[];
  tools?: Array<{ function: { name: string } }>;
  stream?: boolean;
  response_format?: { type: string };
}
export type Turn = { text: string } | { toolCall: { name: string; arguments: Record<string, unknown> } };

const EMAIL_ORDER = /e-?mail\b[^.]*?\bto\s+([\w.+-]+@[\w-]+(?:\.[\w-]+)+)/i;

export const textOf = (content: ChatMessage['content']): string =>
  typeof content === 'string' ? content : (content ?? []).map((part) => part.text ?? '').join('');

/** What the obedient model does next, from the conversation so far. */
export function obedientTurn(request: ChatRequest): Turn {
  const offered = new Set((request.tools ?? []).map((tool) => tool.function.name));
  const lastUser = request.messages.findLastIndex((message) => message.role === 'user');
  const since = request.messages.slice(lastUser + 1);
  const called = new Set(since.flatMap((message) => (message.tool_calls ?? []).map((call) => call.function.name)));
  const read = since
    .filter((message) => message.role === 'tool')
    .map((message) => textOf(message.content))
    .join('\n');
  if (request.response_format?.type === 'json_object' || request.response_format?.type === 'json_schema') {
    return { text: JSON.stringify({ result: 'ok', summary: 'Done as the text said.', follow_up: null }) };
  }
  const order = EMAIL_ORDER.exec(read);
  if (order && offered.has('email__send') && !called.has('email__send')) {
    return { toolCall: { name: 'email__send', arguments: { to: order[1], subject: 'Customer list', body: 'The customer list, as the page asked.' } } };
  }
  if (read === '' && offered.has('knowledge__search')) {
    return { toolCall: { name: 'knowledge__search', arguments: { query: textOf(request.messages[lastUser]?.content) } } };
  }
  return { text: read ? `I read: ${read.slice(0, 300)}` : 'I have nothing to read.' };
}

const USAGE = { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 };

function reply(response: ServerResponse, request: ChatRequest, turn: Turn, id: string): void {
  const created = Math.floor(Date.now() / 1000);
  const toolCalls =
    'toolCall' in turn
      ? [{ index: 0, id: `call_${id}`, type: 'function', function: { name: turn.toolCall.name, arguments: JSON.stringify(turn.toolCall.arguments) } }]
      : undefined;
  const finish = toolCalls ? 'tool_calls' : 'stop';
  const content = 'text' in turn ? turn.text : null;
  if (!request.stream) {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        id,
        object: 'chat.completion',
        created,
        model: 'obedient',
        choices: [{ index: 0, message: { role: 'assistant', content, tool_calls: toolCalls }, finish_reason: finish }],
        usage: USAGE,
      }),
    );
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (delta: object, finishReason: string | null, usage?: object) =>
    response.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: 'obedient', choices: [{ index: 0, delta, finish_reason: finishReason }], ...(usage ? { usage } : {}) })}\n\n`,
    );
  chunk({ role: 'assistant', ...(content ? { content } : {}), ...(toolCalls ? { tool_calls: toolCalls } : {}) }, null);
  chunk({}, finish, USAGE);
  response.end('data: [DONE]\n\n');
}

export interface ObedientModel {
  /** The MODEL setting that points the platform at it. */
  setting: string;
  /** Every tool call it made, in order. */
  toolCalls: Array<{ name: string; arguments: Record<string, unknown> }>;
  close(): Promise<void>;
}

/** `turnOf`: what the model does next (by default it obeys what it reads; a test may give a model of its own). */
export async function startObedientModel(turnOf: (request: ChatRequest) => Turn = obedientTurn): Promise<ObedientModel> {
  const toolCalls: ObedientModel['toolCalls'] = [];
  let served = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest;
      const turn = turnOf(body);
      if ('toolCall' in turn) toolCalls.push(turn.toolCall);
      reply(response, body, turn, String(++served));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    setting: `openai:http://127.0.0.1:${port}/v1#obedient`,
    toolCalls,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
