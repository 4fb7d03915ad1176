/** Files of the projects that consume the packed packages, written into fresh directories outside the repository. */

/** A skill author's TypeScript: every entry point, with checks that the types are real (not `any`). */
export const SKILL_CONSUMER = `
import { defineSkill, startSkill, z, type RunningSkill, type SkillContext } from '@service/skill-sdk';
import { createMockContext, executeTool } from '@service/skill-sdk/test';
import { skillLambdaHandler } from '@service/skill-sdk/lambda';

export const hello = defineSkill({
  code: 'hello', version: '1.0.0', defaultLocale: 'en',
  locales: { en: { hi: 'Hello, {name}!' } },
  tools: {
    greet: {
      description: 'Greets someone', input: { name: z.string() }, annotations: { readOnlyHint: true },
      handler: async ({ name }, ctx: SkillContext) => ({ greeting: ctx.t('hi', { name: name.toUpperCase() }) }),
    },
    broken: {
      description: 'Does not compile',
      input: { count: z.number() },
      // @ts-expect-error the input is typed: count is a number
      handler: async ({ count }) => ({ shout: count.toUpperCase() }),
    },
  },
  events: { 'contact.created': async (data, ctx) => void ctx.t(String(data)) },
});

const result = await executeTool(hello, 'greet', { name: 'Ada' }, { language: 'en' });
export const failed: boolean | undefined = result.isError;
export const ctx: SkillContext = createMockContext({ skill: hello });
export const handler = skillLambdaHandler(hello);
export const running: Promise<RunningSkill> = startSkill(hello, { port: 0 });
`;

/** A webhook receiver's TypeScript: the event union narrows on \`event\`. */
export const WEBHOOKS_CONSUMER = `
import { verify, verifyLambdaEvent, verifyRequest, WebhookVerificationError, type WebhookEvent } from '@service/webhooks';

export async function handle(request: Request, secret: string): Promise<string> {
  const event = await verifyRequest(request, secret);
  switch (event.event) {
    case 'agent.command.completed':
      return event.data.result_text;
    case 'agent.command.failed':
      return event.data.error;
    case 'agent.command.action_required':
      return \`\${event.data.action.capability}: \${event.data.action.reason}\`;
    case 'knowledge.source.synced':
      return \`\${event.data.source_name}: \${event.data.documents} documents\`;
    case 'knowledge.source.failed':
      return event.data.error;
    case 'conversation.handoff_requested':
      return \`\${event.data.conversation_id}: \${event.data.summary}\`;
    case 'conversation.message_created':
      return event.data.message.text;
    case 'conversation.closed':
      return event.data.closed_at;
    case 'eval.run.completed':
      return \`\${event.data.passed}/\${event.data.scenarios}\`;
    case 'audit.event':
      return event.data.action;
    case 'webhook.test':
      return event.data.message;
  }
}

export const fromLambda = (body: string, secret: string): WebhookEvent => verifyLambdaEvent({ body, headers: {} }, secret);
export const reason = (error: unknown) => (error instanceof WebhookVerificationError ? error.reason : undefined);
export const raw = (bytes: Uint8Array, header: string) => verify(bytes, header, 'secret').id;
// @ts-expect-error result_text exists only on agent.command.completed
export const wrong = (event: WebhookEvent) => event.data.result_text;
`;

/** A React host's TypeScript against both entries of the widget package. */
export const WIDGET_CONSUMER = `
import { ChatWidget, ChatTrigger, useChatWidget, useOnChatEvent } from '@service/chat-widget/react';
import { createBus, type ChatBus } from '@service/chat-widget';

export function App() {
  const chat = useChatWidget();
  useOnChatEvent('navigate', ({ href }) => void href.toLowerCase());
  return (
    <>
      <ChatWidget agentId="5eed0000-0000-4000-8000-0000000000a1" config={{ showDelay: 0 }} />
      <ChatTrigger variant="button" label="Ask" />
      <button onClick={() => chat.open()}>Help</button>
    </>
  );
}
export const bus: ChatBus = createBus();
// @ts-expect-error agentId is a string
export const wrong = <ChatWidget agentId={42} />;
`;

/** The same small React app with and without the widget: the difference is what the adapter adds to the main chunk. */
export const reactApp = (withWidget: boolean) => `
import { createRoot } from 'react-dom/client';
${withWidget ? "import { ChatWidget } from '@service/chat-widget/react';" : ''}
function App() {
  return <main><h1>Shop</h1>${withWidget ? '<ChatWidget agentId="5eed0000-0000-4000-8000-0000000000a1" />' : ''}</main>;
}
createRoot(document.getElementById('root')!).render(<App />);
`;

/** Webhook receivers on node:http, verifying with the installed package: one CommonJS, one ESM (web Request). */
const receiver = (verifyLines: string) => `
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', async () => {
    const raw = Buffer.concat(chunks);
    try {
${verifyLines}
      console.log('verified ' + event.id + ' ' + event.event);
      res.writeHead(204).end();
    } catch (error) {
      console.log('refused ' + error.reason);
      res.writeHead(400).end();
    }
  });
});
server.listen(0, '127.0.0.1', () => console.log('listening ' + server.address().port));
`;

export const CJS_RECEIVER = `const { createServer } = require('node:http');
const { verify } = require('@service/webhooks');
${receiver("      const event = verify(raw, req.headers['x-service-signature'], process.env.SIGNING_SECRET);")}`;

export const ESM_RECEIVER = `import { createServer } from 'node:http';
import { verifyRequest } from '@service/webhooks';
${receiver("      const event = await verifyRequest(new Request('http://receiver/hooks', { method: 'POST', headers: req.headers, body: raw }), process.env.SIGNING_SECRET);")}`;

/** tsconfig for a consumer under one moduleResolution, strict, with every library's declarations checked. */
export function tsconfig(resolution: 'nodenext' | 'node16' | 'bundler', include: string[], extra: Record<string, unknown>): string {
  const module = resolution === 'bundler' ? 'esnext' : resolution;
  return JSON.stringify({
    compilerOptions: { strict: true, skipLibCheck: false, noEmit: true, target: 'es2022', module, moduleResolution: resolution, ...extra },
    include,
  });
}
