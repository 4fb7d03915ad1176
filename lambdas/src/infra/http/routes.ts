import { ApiError } from '@service/shared';
import { enveloped, requireMethod } from './errors';
import type { HttpEvent, HttpResult } from './event';

const compiled = new Map<string, RegExp>();

function compile(pattern: string): RegExp {
  const source = pattern
    .split('/')
    .map((segment) => {
      const parameter = /^\{(\w+)(\+?)\}$/.exec(segment);
      if (!parameter) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      return parameter[2] ? `(?<${parameter[1]}>.+?)` : `(?<${parameter[1]}>[^/]+)`;
    })
    .join('/');
  return new RegExp(`^${source}/?$`);
}

/** The path parameters of `path` under an API Gateway route pattern (a trailing slash allowed), or undefined. */
export function matchRoute(pattern: string, path: string): Record<string, string> | undefined {
  let regex = compiled.get(pattern);
  if (!regex) compiled.set(pattern, (regex = compile(pattern)));
  const match = regex.exec(path);
  return match ? { ...match.groups } : undefined;
}

/** The first of `routes` whose pattern matches `path` (the local server's stand-in for API Gateway's route selection). */
export const routeFor = <R extends { route: string }>(routes: readonly R[], path: string): R | undefined =>
  routes.find((candidate) => matchRoute(candidate.route, path) !== undefined);

/**
 * A buffered handler for one route pattern: NOT_FOUND off the pattern, 405 (with Allow) for another method, and every
 * failure answered as the error envelope.
 */
export const routeHandler = (route: string, methods: readonly string[], handle: (event: HttpEvent, params: Record<string, string>) => Promise<HttpResult>) =>
  enveloped(async (event) => {
    const params = matchRoute(route, event.rawPath);
    if (!params) throw new ApiError('NOT_FOUND', `No such resource: ${event.rawPath}`);
    requireMethod(event, methods);
    return handle(event, params);
  });
