import { header, type HttpEvent } from './event';

/** The token of `Authorization: Bearer <token>`, if the request sends one. */
export const bearerToken = (event: HttpEvent): string | undefined =>
  header(event, 'authorization')
    ?.trim()
    .match(/^Bearer\s+(\S+)$/i)?.[1];

/** A credential sent in its own header (`X-Service-Api-Key`, `X-Service-Master-Key`) or as `Authorization: Bearer`. */
export function presentedCredential(event: HttpEvent, headerName: string): string | undefined {
  const own = header(event, headerName)?.trim();
  if (own) return own;
  return bearerToken(event);
}
