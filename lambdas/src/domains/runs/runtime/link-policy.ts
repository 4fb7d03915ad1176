import type { Deps } from '../../../infra/deps';
import type { StoredAgent } from '../../agents/agents';
import { knowledgeSiteOrigins } from '../../knowledge/sites';

// Which links an answer may carry (issue 40): one that points at a passage the answer's searches retrieved, or at a
// page of the agent's own site (the widget's page origin, the agent's allowed origins, its knowledge sources' sites).
// Anything else, a model's guess or an address a hostile page planted in a passage, is removed before anyone sees it.

/** The origin of an http(s) address, or undefined for anything else. */
export function webOrigin(href: string): string | undefined {
  try {
    const url = new URL(href);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** An address without its fragment: a passage's URL carries its heading's anchor, which a model may leave out. */
const withoutFragment = (href: string): string | undefined => {
  try {
    const url = new URL(href);
    url.hash = '';
    return url.href;
  } catch {
    return undefined;
  }
};

export interface LinkPolicy {
  /** Whether an answer may link `href`: a path of the site, a retrieved passage's address, or a page of the agent's own site. */
  allows(href: string): boolean;
}

/**
 * `passageUrls`: the addresses of the passages retrieved so far (read at each check: a search may add some while the
 * answer streams); `siteOrigins`: the origins of the agent's own sites.
 */
export function linkPolicy(passageUrls: () => Iterable<string>, siteOrigins: Iterable<string | undefined>): LinkPolicy {
  const sites = new Set([...siteOrigins].flatMap((origin) => (origin ? [origin] : [])));
  return {
    allows(href) {
      // The URL parser drops tab, CR and LF: "/\t/evil.example" is the protocol-relative "//evil.example".
      // eslint-disable-next-line no-control-regex -- matching control characters is the point
      const value = href.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim();
      // A path of the site the answer is shown on ("/contact"); never a protocol-relative address ("//evil.example").
      if (/^\/(?![/\\])/.test(value)) return true;
      const origin = webOrigin(value);
      if (!origin) return false;
      if (sites.has(origin)) return true;
      const wanted = withoutFragment(value);
      for (const url of passageUrls()) if (withoutFragment(url) === wanted) return true;
      return false;
    },
  };
}

/**
 * The links an agent's answer may carry: its retrieved passages' (`passageUrls`, read at each check), and pages of its
 * own sites (its allowed origins, its website sources' origins and `pageOrigin`, the page a widget visitor is on).
 */
export async function agentLinkPolicy(deps: Deps, agent: StoredAgent, passageUrls: () => Iterable<string>, pageOrigin?: string): Promise<LinkPolicy> {
  const sites = await knowledgeSiteOrigins(deps, agent.workspaceId, agent.id);
  const allowed = (agent.allowedOrigins ?? []).map((origin) => webOrigin(origin));
  return linkPolicy(passageUrls, [...sites, ...allowed, pageOrigin]);
}
