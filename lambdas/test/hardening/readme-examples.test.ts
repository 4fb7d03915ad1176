import { ENDPOINTS, type EndpointName } from '@service/shared';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openApiRequestProblems } from '../support/openapi';

const README = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
const byPath = new Map(Object.entries(ENDPOINTS).map(([name, endpoint]) => [endpoint.path, name as EndpointName]));

/** The shell variables the README sets (`AGENT=…`), to expand in its requests as the shell would. */
const variables = Object.fromEntries([...README.matchAll(/^([A-Z]+)=(\S+)/gm)].map((match) => [match[1]!, match[2]!]));
const expand = (text: string) => text.replace(/\$\{?([A-Z]+)\}?/g, (whole, name: string) => variables[name] ?? whole);
/** Inside double quotes the shell drops the backslash before \ " $ and `. */
const unquote = (quote: string, text: string) => (quote === '"' ? expand(text.replace(/\\([\\"$`])/g, '$1')) : text);

/** Every call of the README, with curl or its `api` wrapper: its endpoint, JSON body (-d) and query string. */
function readmeRequests() {
  const calls = README.split(/(?:^|\$\(|\s)(?:curl|api) (?=[-$"])/m).slice(1).map((call) => call.split(/\n(?!\s)/)[0]!);
  return calls.flatMap((call) => {
    const url = /\$BASE\/([a-z_]+\/[a-z_]+)\/(?:\?([^"\s]*))?/.exec(call);
    const name = url ? byPath.get(url[1]!) : undefined;
    if (!name) return [];
    const data = /-d (["'])((?:\\.|(?!\1)[^\\])*)\1/s.exec(call);
    return [{ name, body: data ? (JSON.parse(unquote(data[1]!, data[2]!)) as unknown) : undefined, query: new URLSearchParams(expand(url![2] ?? '')) }];
  });
}

describe("the README's example requests are valid by the published OpenAPI document", () => {
  const requests = readmeRequests();

  it('finds the agents/command bodies and the agent_id queries', () => {
    expect(requests.filter((request) => request.name === 'agentsCommand' && request.body).length).toBeGreaterThanOrEqual(2);
    expect(requests.some((request) => request.query.has('agent_id'))).toBe(true);
  });

  it('accepts every body and every query parameter (except placeholders: the run id cmd_... and shell variables)', () => {
    for (const request of requests) {
      if (request.body !== undefined) expect(openApiRequestProblems(request.name, { body: request.body }), JSON.stringify(request.body)).toEqual([]);
      for (const [query, value] of request.query) {
        if (value.endsWith('...') || value.startsWith('$')) continue;
        expect(openApiRequestProblems(request.name, { query, value }), `${request.name} ${query}=${value}`).toEqual([]);
      }
    }
  });
});
