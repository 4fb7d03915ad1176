import { ENDPOINTS, type EndpointName } from '@service/shared';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openApiRequestProblems } from '../support/openapi';

const README = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
const byPath = new Map<string, EndpointName>(Object.entries(ENDPOINTS).map(([name, endpoint]) => [endpoint.path, name as EndpointName]));

/** The shell variables the README sets (`AGENT=…`, `BASE=${BASE:-…}`), to expand in its requests as the shell would. */
const variables = Object.fromEntries(
  [...README.matchAll(/^([A-Z_]+)=(?:\$\{\1:-([^}\s]+)\}|([^$\s(]\S*))/gm)].map((match) => [match[1]!, (match[2] ?? match[3])!]),
);
const expand = (text: string) => text.replace(/\$\{?([A-Z_]+)\}?/g, (whole, name: string) => variables[name] ?? whole);
/** Inside double quotes the shell drops the backslash before \ " $ and `. */
const unquote = (quote: string, text: string) => (quote === '"' ? expand(text.replace(/\\([\\"$`])/g, '$1')) : text);

/** Every request of the README's shell blocks (curl, or the script's `api` wrapper): its endpoint, JSON body (-d) and query. */
function readmeRequests() {
  const commands = README.replace(/\\\n/g, ' ')
    .split('\n')
    .filter((line) => line.includes('$BASE/'));
  return commands.flatMap((command) => {
    const url = /\$BASE\/([a-z_]+\/[a-z_]+)\/(?:\?([^"\s]*))?/.exec(command);
    const name = url ? byPath.get(url[1]!) : undefined;
    if (!name) return [];
    const data = /-d (["'])((?:\\.|(?!\1)[^\\])*)\1/s.exec(command);
    return [{ name, body: data ? (JSON.parse(unquote(data[1]!, data[2]!)) as unknown) : undefined, query: new URLSearchParams(expand(url![2] ?? '')) }];
  });
}

describe("the README's example requests are valid by the published OpenAPI document", () => {
  const requests = readmeRequests();

  it('finds the agents/command bodies and the agent_id queries', () => {
    expect(requests.filter((request) => request.name === 'agentsCommand' && request.body).length).toBeGreaterThanOrEqual(2);
    expect(requests.some((request) => request.query.has('agent_id'))).toBe(true);
  });

  it('accepts every body and every query parameter (except values the script fills in at run time)', () => {
    for (const request of requests) {
      if (request.body !== undefined) expect(openApiRequestProblems(request.name, { body: request.body }), JSON.stringify(request.body)).toEqual([]);
      for (const [query, value] of request.query) {
        if (value.includes('$')) continue;
        expect(openApiRequestProblems(request.name, { query, value }), `${request.name} ${query}=${value}`).toEqual([]);
      }
    }
  });
});
