/** @jsxImportSource react */
// A developer's own chat UI on the same agent: useChat from @ai-sdk/react against the widget's chat endpoint, which
// answers in the AI SDK's UI message stream protocol. Bundled by use-chat.e2e.test.ts; `window.__chat` configures it.
import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport } from 'ai';
import { useState } from 'react';
import { createRoot } from 'react-dom/client';

const { agentId, conversationId, visitorId } = (window as unknown as { __chat: { agentId: string; conversationId: string; visitorId: string } }).__chat;
const transport = new DefaultChatTransport({ api: `/v1/agents/${agentId}/chat`, body: { visitorId } });

function Chat() {
  const { messages, sendMessage, status } = useChat({ id: conversationId, transport });
  const [input, setInput] = useState('');
  return (
    <main>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void sendMessage({ text: input });
          setInput('');
        }}
      >
        <input aria-label="Message" value={input} onChange={(event) => setInput(event.target.value)} />
        <button type="submit">Send</button>
      </form>
      <p id="status">{status}</p>
      {messages.map((message) => (
        <div key={message.id} className="message" data-role={message.role}>
          {message.parts.map((part, index) =>
            part.type === 'text' ? (
              <p key={index} className="text">
                {part.text}
              </p>
            ) : part.type.startsWith('data-') ? (
              <pre key={index} className="data" data-type={part.type}>
                {JSON.stringify((part as { data: unknown }).data)}
              </pre>
            ) : null,
          )}
        </div>
      ))}
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<Chat />);
