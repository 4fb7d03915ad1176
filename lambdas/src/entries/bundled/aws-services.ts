import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import * as z from 'zod';
import PostalMime from 'postal-mime';
import type { MailMessage, MailTransport } from '../../infra/mail/mail';
import type { LocalQueue } from '../../infra/queue/local';
import { LOCAL_ACCOUNT, LOCAL_REGION, idOfArn } from './cloudformation';
import type { RolePolicies } from './iam';

/**
 * The AWS services the bundles call besides DynamoDB, on one loopback endpoint, with just the operations the
 * platform uses, in the protocols SDK v3 speaks: SQS SendMessage (AWS JSON 1.0), Secrets Manager GetSecretValue
 * (AWS JSON 1.1) and SES v2 SendEmail (REST JSON). Each call is signed with the calling function's role (its access
 * key id names the role) and refused as AccessDenied unless that role's policies in the template allow it.
 */
export interface AwsServices {
  /** Secret ARN -> value, as Secrets Manager generated them at deploy time. */
  secrets: Map<string, string>;
  /** SQS queue id (logical id) -> the durable local queue that holds its messages. */
  queue: LocalQueue<string>;
  queueIds: Set<string>;
  /** Where SES delivers (the local mailbox). */
  mail: MailTransport;
  /** Domains and addresses verified in SES; SES refuses any other sender. Undefined: every sender is accepted. */
  verifiedIdentities?: string[];
  policies: RolePolicies;
}

/** The access key id a function's sandbox signs with: it names the function's role. */
export const accessKeyIdForRole = (roleArn: string) => `LOCAL${idOfArn(roleArn)}`;
const roleOfRequest = (request: IncomingMessage) => /Credential=LOCAL([^/]+)\//.exec(request.headers.authorization ?? '')?.[1];

class AwsError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

const SendMessage = z.object({ QueueUrl: z.string(), MessageBody: z.string().min(1), DelaySeconds: z.number().int().min(0).max(900).optional() });
const GetSecretValue = z.object({ SecretId: z.string() });
const SendEmail = z.object({
  FromEmailAddress: z.string().optional(),
  Destination: z.object({ ToAddresses: z.array(z.string()).min(1) }),
  Content: z.union([
    z.object({ Simple: z.object({ Subject: z.object({ Data: z.string() }), Body: z.object({ Text: z.object({ Data: z.string() }) }) }) }),
    // Raw MIME, base64 in the JSON protocol (the platform's threaded mail).
    z.object({ Raw: z.object({ Data: z.string() }) }),
  ]),
});

/** What SES sends of a mail: a simple one as it is, a raw one as its MIME says (the mailbox then gives it SES's Message-ID). */
async function mailOf(content: z.infer<typeof SendEmail>['Content'], to: string, from: string): Promise<MailMessage> {
  if ('Simple' in content) return { to, from, subject: content.Simple.Subject.Data, text: content.Simple.Body.Text.Data };
  const parsed = await PostalMime.parse(Buffer.from(content.Raw.Data, 'base64'));
  const header = (key: string) => parsed.headers.find((line) => line.key === key)?.value;
  const autoSubmitted = header('auto-submitted');
  return {
    to,
    from,
    subject: parsed.subject ?? '',
    text: parsed.text ?? '',
    ...(parsed.html ? { html: parsed.html } : {}),
    ...(parsed.replyTo?.[0] && 'address' in parsed.replyTo[0] ? { replyTo: parsed.replyTo[0].address } : {}),
    ...(parsed.inReplyTo ? { inReplyTo: parsed.inReplyTo } : {}),
    ...(parsed.references ? { references: parsed.references.split(/\s+/).filter(Boolean) } : {}),
    ...(autoSubmitted === 'auto-replied' || autoSubmitted === 'auto-generated' ? { autoSubmitted } : {}),
  };
}

/** The From: of a raw mail (SES takes the sender from it when FromEmailAddress is not given). */
const rawSender = async (data: string): Promise<string> => (await PostalMime.parse(Buffer.from(data, 'base64'))).from?.address ?? '';

const addressOf = (sender: string) => (/<([^>]+)>/.exec(sender)?.[1] ?? sender).trim().toLowerCase();

export function startAwsServices(services: AwsServices): Promise<{ server: Server; endpoint: string }> {
  const authorize = (role: string | undefined, action: string, resource: string) => {
    if (!role || !services.policies.allows(role, action, resource)) {
      throw new AwsError(
        400,
        'AccessDeniedException',
        `User: arn:aws:sts::${LOCAL_ACCOUNT}:assumed-role/${role ?? 'unknown'} is not authorized to perform: ${action} on resource: ${resource}`,
      );
    }
  };

  const operations: Record<string, (body: unknown, role: string | undefined) => Promise<unknown>> = {
    'AmazonSQS.SendMessage': async (body, role) => {
      const input = SendMessage.parse(body);
      const queueId = input.QueueUrl.split('/').at(-1)!;
      if (!services.queueIds.has(queueId))
        throw new AwsError(400, 'AWS.SimpleQueueService.NonExistentQueue', `The specified queue does not exist: ${input.QueueUrl}`);
      authorize(role, 'sqs:SendMessage', `arn:aws:sqs:${LOCAL_REGION}:${LOCAL_ACCOUNT}:${queueId}`);
      const id = await services.queue.sendSerialized(queueId, input.MessageBody, input.DelaySeconds ?? 0);
      return { MessageId: id, MD5OfMessageBody: createHash('md5').update(input.MessageBody).digest('hex') };
    },
    'secretsmanager.GetSecretValue': async (body, role) => {
      const { SecretId } = GetSecretValue.parse(body);
      const value = services.secrets.get(SecretId);
      if (value === undefined) throw new AwsError(400, 'ResourceNotFoundException', "Secrets Manager can't find the specified secret.");
      authorize(role, 'secretsmanager:GetSecretValue', SecretId);
      return { ARN: SecretId, Name: idOfArn(SecretId), SecretString: value, VersionId: 'local', VersionStages: ['AWSCURRENT'], CreatedDate: 0 };
    },
    'sesv2.SendEmail': async (body, role) => {
      const input = SendEmail.parse(body);
      const sender = input.FromEmailAddress ?? ('Raw' in input.Content ? await rawSender(input.Content.Raw.Data) : '');
      const from = addressOf(sender);
      const domain = from.split('@')[1] ?? '';
      const identity =
        services.verifiedIdentities === undefined
          ? domain
          : services.verifiedIdentities.find((verified) => verified.toLowerCase() === from || verified.toLowerCase() === domain);
      if (identity === undefined)
        throw new AwsError(
          400,
          'MessageRejected',
          `Email address is not verified. The following identities failed the check in region ${LOCAL_REGION.toUpperCase()}: ${from}`,
        );
      authorize(role, 'ses:SendEmail', `arn:aws:ses:${LOCAL_REGION}:${LOCAL_ACCOUNT}:identity/${identity}`);
      let messageId = '';
      for (const to of input.Destination.ToAddresses) ({ messageId } = await services.mail.send(await mailOf(input.Content, to, sender)));
      // The mailbox composed it under SES's Message-ID domain: its local part is SES's message id.
      return { MessageId: messageId.slice(1).split('@')[0] };
    },
  };

  const server = createServer((request, response) => void handle(request, response));
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request as AsyncIterable<Buffer>) chunks.push(chunk);
    const target = request.url?.startsWith('/v2/email/outbound-emails') ? 'sesv2.SendEmail' : String(request.headers['x-amz-target'] ?? '');
    const json = target.startsWith('sesv2') ? 'application/json' : 'application/x-amz-json-1.0';
    try {
      const operation = operations[target];
      if (!operation) throw new AwsError(400, 'UnsupportedOperation', `The bundled platform does not emulate ${target || request.url}`);
      const output = await operation(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'), roleOfRequest(request));
      response.writeHead(200, { 'content-type': json }).end(JSON.stringify(output));
    } catch (error) {
      const failure =
        error instanceof AwsError
          ? error
          : error instanceof z.ZodError
            ? new AwsError(400, 'ValidationException', error.message)
            : new AwsError(500, 'InternalFailure', String(error));
      response
        .writeHead(failure.status, { 'content-type': json, 'x-amzn-errortype': failure.type, 'x-amzn-query-error': `${failure.type};Sender` })
        .end(JSON.stringify({ __type: failure.type, message: failure.message }));
    }
  }
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({ server, endpoint: `http://127.0.0.1:${port}` });
    });
  });
}
