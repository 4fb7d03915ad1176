import type { StoredAgent } from '../../domains/agents/agents';
import type { Deps } from '../../infra/deps';
import { corsHeaders } from '../../infra/http/cors';
import { errorResult, requireMethod } from '../../infra/http/errors';
import { header, type HttpEvent, type HttpResult } from '../../infra/http/event';
import { writeResult, type ResponseSink, type StreamingHandler } from '../../infra/http/streaming';
import { assertOriginAllowed, widgetAgent } from './widget-agent';

/**
 * The preamble every widget route shares (config, chat, live, history, rating), as one middleware: the agent the path
 * names, CORS for the agent's allowed origins, a preflight answered 204, the method, the Origin check; any refusal
 * answers as the error envelope with those CORS headers, so the widget's page can read it.
 */
export interface WidgetRouteSpec {
  route: string;
  methods: readonly string[];
  /**
   * `required`: a POST, which browsers always send with Origin; `when-sent`: a GET, whose same-origin form carries
   * none (what protects it is the visitor's id or signed identity); `none`: public (the configuration).
   */
  origin: 'required' | 'when-sent' | 'none';
}

/** A widget request past the preamble. */
export interface WidgetRequest {
  agent: StoredAgent;
  cors: Record<string, string>;
}

/** Runs the preamble; undefined for a preflight. `state.cors` holds the headers every answer carries from the moment they are known. */
async function preamble(deps: Deps, event: HttpEvent, spec: WidgetRouteSpec, state: { cors: Record<string, string> }): Promise<WidgetRequest | undefined> {
  const agent = await widgetAgent(deps, event, spec.route);
  const origin = header(event, 'origin');
  state.cors = corsHeaders(origin, agent.allowedOrigins, spec.methods.join(', '));
  if (event.requestContext.http.method === 'OPTIONS') return undefined;
  requireMethod(event, spec.methods);
  if (spec.origin === 'required' || (spec.origin === 'when-sent' && origin)) assertOriginAllowed(agent, origin);
  return { agent, cors: state.cors };
}

/** A buffered widget route: `handle` answers a request past the preamble. */
export function widgetRoute(deps: Deps, spec: WidgetRouteSpec, handle: (request: WidgetRequest, event: HttpEvent) => Promise<HttpResult>) {
  return async (event: HttpEvent): Promise<HttpResult> => {
    const state = { cors: { vary: 'Origin' } as Record<string, string> };
    try {
      const request = await preamble(deps, event, spec, state);
      return request ? await handle(request, event) : { statusCode: 204, headers: state.cors, body: '' };
    } catch (error) {
      return errorResult(error, event.rawPath, state.cors);
    }
  };
}

/**
 * A streamed widget route: `prepare` checks and stores what it must before anything is sent (a refusal still answers
 * as the envelope), then answers the stream to write once the response started.
 */
export function widgetStream(
  deps: Deps,
  spec: WidgetRouteSpec,
  prepare: (request: WidgetRequest, event: HttpEvent, sink: ResponseSink) => Promise<() => Promise<void>>,
): StreamingHandler {
  return async (event, sink) => {
    const state = { cors: { vary: 'Origin' } as Record<string, string> };
    let stream: () => Promise<void>;
    try {
      const request = await preamble(deps, event, spec, state);
      if (!request) {
        sink.start(204, state.cors);
        return sink.end();
      }
      stream = await prepare(request, event, sink);
    } catch (error) {
      return writeResult(sink, errorResult(error, event.rawPath, state.cors));
    }
    await stream();
  };
}
