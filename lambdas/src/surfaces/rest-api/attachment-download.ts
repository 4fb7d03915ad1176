import { ENDPOINTS, type DataOf } from '@service/shared';
import { attachmentFile } from '../../domains/mail/attachments';
import type { Deps } from '../../infra/deps';
import type { HttpEvent, HttpResult } from '../../infra/http/event';

const PATH = `/${ENDPOINTS.conversationsAttachment.path}`;

/**
 * conversations/attachment: once the REST pipeline checked the caller (a signed-in teammate of the workspace), the
 * query and the mail (its answer is then 200 with what it checked), the attachment is answered as a file to save,
 * never a page: `Content-Disposition: attachment`, `nosniff`, a type browsers do not render (attachments.ts), and a
 * sandbox policy should anything still open it. Every other answer passes unchanged.
 */
export async function attachmentDownload(deps: Deps, event: HttpEvent, checked: HttpResult): Promise<HttpResult> {
  if (checked.statusCode !== 200 || !event.rawPath.replace(/\/+$/, '').endsWith(PATH)) return checked;
  const { data } = JSON.parse(checked.body ?? '{}') as { data: DataOf<'conversationsAttachment'> };
  const file = await attachmentFile(deps, { workspaceId: data.workspace_id, conversationId: data.conversation_id }, data.mail_id, data.attachment.index);
  return {
    statusCode: 200,
    isBase64Encoded: true,
    body: Buffer.from(file.content).toString('base64'),
    headers: {
      'content-type': file.type,
      'content-disposition': contentDisposition(file.filename),
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'cache-control': 'private, no-store',
    },
  };
}

/** RFC 6266: an ASCII `filename` for old clients and the UTF-8 name as `filename*` (RFC 8187), nothing a header could break on. */
function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
