import type { LanguageModel } from 'ai';
import * as z from 'zod';
import { handoffSettingsOf } from '../../domains/agents/agents';
import { announceMessage, requestHandoff } from '../../domains/conversations/handling';
import { appendEntryOnce, latestEntries } from '../../domains/conversations/conversations';
import { mailEntry } from '../../domains/conversations/reply-by-mail';
import { takeAutoReply } from '../../domains/mail/never-answer';
import { acceptSesReceipt, readSesReceipt } from '../../domains/mail/ses-receipt';
import { finishMail, MailInWork, threadMail, type ThreadedMail } from '../../domains/mail/thread-mail';
import { noteAnswer } from '../../domains/insights/record';
import { leftUnanswered } from '../../domains/knowledge/unanswered';
import { recordUsage } from '../../domains/usage/usage';
import type { Deps } from '../../infra/deps';
import { logger } from '../../infra/logger';
import { eachRecordAtOnce, type QueueConsumer } from '../../infra/queue/queue';
import { chatLanguage } from '../widget/chat-language';
import type { ChatRequestBody } from '../widget/chat-request';
import { handoffTool } from '../widget/people-turn';
import { streamEmailReply } from './email-reply';
import { visitorToolbox, type ReplyActions } from '../widget/visitor-tools';

/** Nothing acts on the strength of an e-mail (its From: may be forged): an acting tool is never performed. */
const NO_ACTIONS: ReplyActions = {
  countCall: async () => true,
  act: async () => ({ performed: false, reason: 'Nothing is done on the strength of an e-mail; tell the customer a teammate will follow up.' }),
};

/** How many transcript entries the answer is written from. */
const HISTORY = 20;

/**
 * The agent answers a threaded mail as it answers the widget (streamWidgetReply, the visitor role's tools, handoff),
 * once: its answer is stored once per mail and mailed at most twice (reply-by-mail.ts); `draft` agents leave it as a
 * note and the conversation waits for a teammate.
 */
async function answerMail(deps: Deps, model: LanguageModel, threaded: ThreadedMail): Promise<void> {
  const { mail, agent, meta, entry } = threaded;
  if ((meta.handler ?? 'agent') !== 'agent') {
    if (meta.handler === 'people') await announceMessage(deps, meta, { ...entry, role: 'user' });
    await finishMail(deps, mail.mailId, { state: 'answered' });
    return;
  }
  const seed = `answer:${mail.mailId}`;
  const history = (await latestEntries(deps, meta.conversationId, HISTORY)).reverse();
  let answer = history.find((message) => message.actionSeed === seed);
  if (!answer) {
    if (!(await takeAutoReply(deps, agent.id, mail.from ?? ''))) {
      await finishMail(deps, mail.mailId, { state: 'ignored', reason: 'reply_limit' });
      return;
    }
    const messages = history.flatMap((message) =>
      message.role === 'user' || message.role === 'assistant' ? [{ role: message.role, content: message.content }] : [],
    );
    const body: ChatRequestBody = { conversationId: meta.conversationId, visitorId: meta.visitorId, locale: 'en', messages, context: { system: [], data: {} } };
    const conversation = { agent, conversationId: meta.conversationId, language: await chatLanguage(agent, body) };
    const toolbox = await visitorToolbox(deps, conversation);
    let handedOff = false;
    try {
      const reply = await streamEmailReply(deps, {
        model,
        conversation,
        body,
        tools: toolbox.tools,
        actions: NO_ACTIONS,
        handoff: handoffSettingsOf(agent).enabled ? handoffTool(deps, { ...conversation, page: undefined }, () => (handedOff = true)) : undefined,
      });
      if (reply.usage)
        await recordUsage(deps, agent.workspaceId, agent.id, { inputTokens: reply.usage.inputTokens ?? 0, outputTokens: reply.usage.outputTokens ?? 0 });
      const draft = (agent.emailAnswers ?? 'auto') === 'draft';
      answer = await appendEntryOnce(
        deps,
        meta.conversationId,
        seed,
        draft ? { role: 'note', content: `Draft answer by ${agent.name}:\n\n${reply.text}` } : { role: 'assistant', content: reply.text },
      );
      if (!draft) {
        await noteAnswer(
          deps,
          { workspaceId: agent.workspaceId, agentId: agent.id, conversationId: meta.conversationId, channel: meta.channel ?? 'widget' },
          answer.messageId,
          {
            at: answer.createdAt,
            inputTokens: reply.usage?.inputTokens ?? 0,
            outputTokens: reply.usage?.outputTokens ?? 0,
            ...reply.toolTally,
            unanswered: reply.knowledgeOffered && leftUnanswered({ ...reply.knowledge, answer: reply.text }),
          },
        );
      }
      if (draft && !handedOff)
        await requestHandoff(deps, meta.conversationId, {
          reason: 'agent',
          summary: 'A draft answer to an e-mail waits for a teammate',
          language: conversation.language,
        });
    } finally {
      await toolbox.close();
    }
  }
  if (answer.role === 'assistant') await mailEntry(deps, meta, answer, { autoSubmitted: 'auto-replied' });
  await finishMail(deps, mail.mailId, { state: 'answered' });
}

/** Works one stored mail: threaded, then answered (again after a crash or a duplicate message: nothing is done twice). */
async function workMail(deps: Deps, model: LanguageModel, mailId: string): Promise<void> {
  const threaded = await threadMail(deps, mailId);
  if (threaded && threaded !== 'answered') await answerMail(deps, model, threaded);
}

const platformMessage = z.object({ mailId: z.uuid() });

/**
 * The `mail` queue's consumer (locally; the InboundMail function in AWS): a stored mail's own message (`{mailId}`), or
 * SES receiving's notification through SNS (ses-receipt.ts), accepted then worked here. A message that is neither is
 * logged and dropped: retrying it would never make it readable.
 */
export function createMailConsumer(deps: Deps, model: LanguageModel): QueueConsumer {
  return eachRecordAtOnce(
    async (record) => {
      let body: unknown;
      try {
        body = JSON.parse(record.body);
      } catch {
        body = undefined;
      }
      const own = platformMessage.safeParse(body);
      const receipt = own.success ? undefined : readSesReceipt(body);
      if (!own.success && !receipt) {
        logger.warn('inbound mail message refused: neither a mail id nor an SES receipt', { messageId: record.messageId });
        return;
      }
      const mailIds = own.success
        ? [own.data.mailId]
        : (await acceptSesReceipt(deps, receipt!)).flatMap((accepted) => (accepted.work ? [accepted.mailId] : []));
      for (const mailId of mailIds) await workMail(deps, model, mailId);
    },
    (record, error) =>
      error instanceof MailInWork
        ? logger.warn('inbound mail retried later: another worker holds it', { messageId: record.messageId })
        : logger.error('inbound mail failed', { messageId: record.messageId, error }),
  );
}
