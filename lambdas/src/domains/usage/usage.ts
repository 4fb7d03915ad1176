import { DomainError } from '@service/shared';
import { cached, forget } from '../../infra/cache/short-cache';
import type { Deps } from '../../infra/deps';
import type { Workspace } from '../access/workspaces';
import { addUsage, queryUsageItems, type UsageItem } from './repository';

/**
 * Token usage, one counter item per workspace, day and agent (sk `day#YYYY-MM-DD#agent#<id>`), incremented with ADD
 * so concurrent runs never lose a count (usage/repository.ts). Reports and the plan's monthly allowance read ranges
 * of these items.
 */
export interface Totals {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  runs: number;
}

const day = (date: Date) => date.toISOString().slice(0, 10);
const usageKey = (date: string, agentId: string) => `day#${date}#agent#${agentId}`;
const emptyTotals = (): Totals => ({ input_tokens: 0, output_tokens: 0, total_tokens: 0, runs: 0 });

export async function recordUsage(deps: Deps, workspaceId: string, agentId: string, tokens: { inputTokens: number; outputTokens: number }): Promise<void> {
  await addUsage(deps, workspaceId, usageKey(day(deps.now()), agentId), tokens);
  forget(deps, tokenUseKey(workspaceId));
}

function add(totals: Totals, item: UsageItem): Totals {
  const input = item.inputTokens ?? 0;
  const output = item.outputTokens ?? 0;
  return {
    input_tokens: totals.input_tokens + input,
    output_tokens: totals.output_tokens + output,
    total_tokens: totals.total_tokens + input + output,
    runs: totals.runs + (item.runs ?? 0),
  };
}

export async function usageReport(deps: Deps, workspaceId: string, query: { from?: string; to?: string; agent_id?: string }) {
  const to = query.to ?? day(deps.now());
  const from = query.from ?? `${to.slice(0, 8)}01`;
  // `to` may be the default (today), so the schema alone cannot see a `from` in the future.
  if (from > to) throw new DomainError('VALIDATION_ERROR', `from (${from}) must not be after to (${to})`, { field: 'from' });
  const items = (await queryUsageItems(deps, workspaceId, from, to)).filter((item) => !query.agent_id || item.sk.endsWith(`#agent#${query.agent_id}`));
  const byDay = new Map<string, Totals>();
  const byAgent = new Map<string, Totals>();
  let total = emptyTotals();
  for (const item of items) {
    const [, date, , agentId] = item.sk.split('#') as [string, string, string, string];
    byDay.set(date, add(byDay.get(date) ?? emptyTotals(), item));
    byAgent.set(agentId, add(byAgent.get(agentId) ?? emptyTotals(), item));
    total = add(total, item);
  }
  return {
    from,
    to,
    total,
    by_day: [...byDay].sort(([a], [b]) => a.localeCompare(b)).map(([date, totals]) => ({ date, ...totals })),
    by_agent: [...byAgent].map(([agent_id, totals]) => ({ agent_id, ...totals })),
  };
}

export function billingPeriod(now: Date): { start: string; end: string } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0));
  return { start: day(start), end: day(end) };
}

export async function monthToDate(deps: Deps, workspaceId: string): Promise<Totals> {
  const period = billingPeriod(deps.now());
  return (await queryUsageItems(deps, workspaceId, period.start, period.end)).reduce(add, emptyTotals());
}

/** How long a container's plan gate trusts the month's token use it read (a range query over the month's items). */
export const TOKEN_USE_TTL_MS = 2_000;
const tokenUseKey = (workspaceId: string) => `tokens:${workspaceId}`;

/**
 * Tokens the workspace used this billing month, as the plan gate reads it: kept TOKEN_USE_TTL_MS per container
 * (bounded LRU), and dropped when this container records usage. So a workspace past its allowance may start commands
 * for at most that long after a run in another container used the last tokens; its runs are billed all the same.
 */
export const tokensUsedThisMonth = (deps: Deps, workspaceId: string): Promise<number> =>
  cached(deps, tokenUseKey(workspaceId), TOKEN_USE_TTL_MS, async () => (await monthToDate(deps, workspaceId)).total_tokens);

/** A workspace that used its plan's monthly tokens cannot start more runs; `used` may have been read ahead. */
export async function assertWithinTokenLimit(deps: Deps, workspace: Workspace, used: Promise<number> = tokensUsedThisMonth(deps, workspace.id)): Promise<void> {
  const tokens = await used;
  if (tokens >= workspace.tokenLimit) {
    throw new DomainError(
      'TOKEN_LIMIT_REACHED',
      `The workspace used ${tokens} of its ${workspace.tokenLimit} tokens this month; upgrade the plan or wait for the next period`,
    );
  }
}
