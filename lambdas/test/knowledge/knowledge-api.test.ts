import { describe, expect, it } from 'vitest';
import { apiClient, usePlatform } from '../support/platform';
import { createWorkspace } from '../support/workspaces';
import { createSource, getSource, search, upload, type Document, type Source } from './helpers';

const PRICING = `# Pricing

Our plans for every team.

## Starter

The Starter plan costs €19 a month and covers one website.

## Partner

The Partner plan costs €99 a month, for agencies with many client sites. There is no Pro plan.
`;

// One platform for the file: the endpoints' behaviour and their refusals of bad input.
const ctx = usePlatform();

describe('knowledge through the REST API', () => {
  it('indexes an uploaded Markdown file by its sections and finds the right one', async () => {
    const source = await createSource(ctx.api, { type: 'files', name: 'Handbook' });
    expect(source).toMatchObject({ type: 'files', status: 'ready', documents: 0, sync: 'off', url: null });
    const document = await upload(ctx.api, source.id, 'pricing.md', PRICING);
    expect(document).toMatchObject({ source_id: source.id, name: 'pricing.md', title: 'Pricing', status: 'indexed', chunks: 3, url: null });
    const [best] = await search(ctx.api, 'How much does the Partner plan cost?');
    expect(best).toMatchObject({ document_id: document.id, name: 'pricing.md', title: 'Pricing', url: null });
    expect(best!.text).toContain('€99 a month');
    expect(best!.score).toBeGreaterThan(0);
    expect(await getSource(ctx.api, source.id)).toMatchObject({ documents: 1, chunks: 3 });
  });

  it('replaces a file uploaded again under the same name, and leaves an unchanged one as it was', async () => {
    const source = await createSource(ctx.api, { type: 'files' });
    const first = await upload(ctx.api, source.id, 'hours.txt', 'We are open from 9 to 17 on weekdays.', 'text/plain');
    const same = await upload(ctx.api, source.id, 'hours.txt', 'We are open from 9 to 17 on weekdays.', 'text/plain');
    expect(same).toEqual(first);
    const changed = await upload(ctx.api, source.id, 'hours.txt', 'We are open from 8 to 20 every day.', 'text/plain');
    expect(changed.id).toBe(first.id);
    const hits = await search(ctx.api, 'opening hours open every day');
    expect(hits.filter((hit) => hit.document_id === first.id).map((hit) => hit.text)).toEqual(['We are open from 8 to 20 every day.']);
    expect(await getSource(ctx.api, source.id)).toMatchObject({ documents: 1, chunks: 1 });
  });

  it('stores a written answer once per Idempotency-Key and cites its link', async () => {
    const body = {
      question: 'Do you offer refunds?',
      answer: 'Yes: a full refund within 30 days of purchase, no questions asked.',
      url: 'https://example.com/refunds',
    };
    const headers = { 'idempotency-key': 'answer-refunds-1' };
    const first = await ctx.api<{ document: Document }>('knowledge/answer_create/', { body, headers });
    expect(first.status).toBe(201);
    const replay = await ctx.api<{ document: Document }>('knowledge/answer_create/', { body, headers });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.data.document.id).toBe(first.body.data.document.id);
    const hits = await search(ctx.api, 'refund within 30 days');
    expect(hits.filter((hit) => hit.document_id === first.body.data.document.id)).toEqual([
      expect.objectContaining({ title: 'Do you offer refunds?', url: 'https://example.com/refunds', name: 'Do you offer refunds?' }),
    ]);
    const sources = (await ctx.api<{ sources: Source[] }>('knowledge/source_list/')).body.data.sources;
    expect(sources.filter((source) => source.type === 'answers')).toEqual([expect.objectContaining({ name: 'Answers', documents: 1 })]);
  });

  it('finds Turkish text by its stem, and German and Japanese text too', async () => {
    const source = await createSource(ctx.api, { type: 'files', name: 'Diller' });
    await upload(ctx.api, source.id, 'saatler.md', '# Çalışma saatleri\n\nÇalışma saatlerimiz hafta içi dokuzdan altıya kadardır ve cumartesi kapalıyız.');
    await upload(ctx.api, source.id, 'preise.md', '# Preise\n\nDer Partner-Tarif kostet 99 Euro im Monat.');
    await upload(ctx.api, source.id, 'jikan.md', '# 営業時間\n\n営業時間は平日の午前九時から午後六時までです。');
    expect((await search(ctx.api, 'çalışma saatleri'))[0]).toMatchObject({ name: 'saatler.md' });
    expect((await search(ctx.api, 'Wie viel kostet der Tarif im Monat?'))[0]).toMatchObject({ name: 'preise.md' });
    expect((await search(ctx.api, '営業時間を教えてください'))[0]).toMatchObject({ name: 'jikan.md' });
  });

  it('searches only the sources made available to the agent asked for', async () => {
    const other = '00000000-0000-4000-8000-000000000001';
    const restricted = await createSource(ctx.api, { type: 'files', name: 'Internal', agent_ids: [ctx.agentId] });
    await upload(ctx.api, restricted.id, 'secret-menu.md', '# Staff menu\n\nThe staff discount code is ZEBRA-42.');
    expect((await search(ctx.api, 'staff discount code', { agent_id: ctx.agentId })).map((hit) => hit.name)).toContain('secret-menu.md');
    expect((await search(ctx.api, 'staff discount code', { agent_id: other })).map((hit) => hit.name)).not.toContain('secret-menu.md');
  });

  it("never shows one workspace's knowledge to another", async () => {
    const source = await createSource(ctx.api, { type: 'files', name: 'Company A' });
    await upload(ctx.api, source.id, 'a-only.md', '# Falcon project\n\nThe falcon project budget is 12 million.');
    const b = await createWorkspace(ctx.platform.deps);
    const apiB = apiClient(ctx.platform.apiBaseUrl, b.apiKey);
    expect(await search(apiB, 'falcon project budget')).toEqual([]);
    const sourceB = await createSource(apiB, { type: 'files', name: 'Company B' });
    await upload(apiB, sourceB.id, 'b.md', '# Heron project\n\nThe heron project is small.');
    expect((await search(apiB, 'falcon heron project')).map((hit) => hit.name)).toEqual(['b.md']);
    expect((await apiB('knowledge/source_get/', { query: { source_id: source.id } })).body.error).toMatchObject({ code: 'NOT_FOUND', field: 'source_id' });
    expect(
      (await apiB('knowledge/document_upload/', { body: { source_id: source.id, name: 'x.md', content_type: 'text/markdown', content: '# x' } })).status,
    ).toBe(404);
    expect((await apiB('knowledge/source_delete/', { body: { source_id: source.id } })).status).toBe(404);
    expect((await search(ctx.api, 'falcon project budget')).map((hit) => hit.name)).toContain('a-only.md');
  });

  it('deletes a source with its documents, files and index rows', async () => {
    const source = await createSource(ctx.api, { type: 'files', name: 'Doomed' });
    const document = await upload(ctx.api, source.id, 'doomed.md', '# Doomed\n\nThe pelican protocol is retired.\n\n## More\n\nPelicans everywhere.');
    const stores = await ctx.platform.deps.knowledge!();
    const workspaceId = ctx.platform.demo.workspaceId;
    expect(await stores.index.countRows(workspaceId, { sourceId: source.id })).toBe(3);
    expect(await stores.blobs.list(`${workspaceId}/${source.id}/`)).toHaveLength(2);
    // Found before the deletion, so its absence after says the deletion removed it.
    expect((await search(ctx.api, 'pelican protocol')).map((hit) => hit.document_id)).toContain(document.id);
    const deleted = await ctx.api('knowledge/source_delete/', { body: { source_id: source.id } });
    expect(deleted.body).toMatchObject({ status: true, data: { deleted: true, source_id: source.id } });
    expect(await stores.index.countRows(workspaceId, { sourceId: source.id })).toBe(0);
    expect(await stores.blobs.list(`${workspaceId}/${source.id}/`)).toEqual([]);
    expect((await search(ctx.api, 'pelican protocol')).map((hit) => hit.document_id)).not.toContain(document.id);
    expect((await ctx.api('knowledge/source_get/', { query: { source_id: source.id } })).status).toBe(404);
    expect((await ctx.api('knowledge/document_list/', { query: { source_id: source.id } })).status).toBe(404);
  });

  it('deletes one file with its index rows', async () => {
    const source = await createSource(ctx.api, { type: 'files' });
    const document = await upload(ctx.api, source.id, 'gone.md', '# Gone\n\nThe ibis rule applies.');
    expect((await search(ctx.api, 'ibis rule')).map((hit) => hit.document_id)).toContain(document.id);
    expect((await ctx.api('knowledge/document_delete/', { body: { document_id: document.id } })).status).toBe(200);
    expect((await search(ctx.api, 'ibis rule')).map((hit) => hit.document_id)).not.toContain(document.id);
    expect(await getSource(ctx.api, source.id)).toMatchObject({ documents: 0, chunks: 0 });
    expect((await ctx.api('knowledge/document_delete/', { body: { document_id: document.id } })).body.error).toMatchObject({
      code: 'NOT_FOUND',
      field: 'document_id',
    });
  });

  it('syncs a files source on request and reports it ready', async () => {
    const source = await createSource(ctx.api, { type: 'files' });
    await upload(ctx.api, source.id, 'a.md', '# A\n\nalpha');
    const sync = await ctx.api<{ source: Source }>('knowledge/source_sync/', { body: { source_id: source.id } });
    expect(sync.status).toBe(202);
    const deadline = Date.now() + 20_000;
    let current = await getSource(ctx.api, source.id);
    while (current.last_synced_at === null && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      current = await getSource(ctx.api, source.id);
    }
    expect(current).toMatchObject({ status: 'ready', documents: 1, chunks: 1, next_sync_at: null });
  });
});

describe('knowledge endpoints refuse bad input with the documented error', () => {
  const error = async (path: string, body: unknown) => {
    const response = await ctx.api(path, { body });
    return { status: response.status, ...response.body.error };
  };

  it('source_create', async () => {
    expect(await error('knowledge/source_create/', { type: 'website' })).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', field: 'url' });
    expect(await error('knowledge/source_create/', { type: 'files', url: 'https://example.com' })).toMatchObject({ status: 400, field: 'url' });
    expect(await error('knowledge/source_create/', { type: 'blog' })).toMatchObject({ status: 400, field: 'type' });
    expect(await error('knowledge/source_create/', { type: 'website', url: 'http://example.com/' })).toMatchObject({ status: 400, field: 'url' });
    expect(await error('knowledge/source_create/', { type: 'website', url: 'https://127.0.0.1/' })).toMatchObject({ status: 400, field: 'url' });
    expect(await error('knowledge/source_create/', { type: 'website', url: 'https://localhost/docs' })).toMatchObject({ status: 400, field: 'url' });
    expect(await error('knowledge/source_create/', { type: 'website', url: 'ftp://example.com/' })).toMatchObject({ status: 400, field: 'url' });
    expect(await error('knowledge/source_create/', { type: 'files', agent_ids: ['not-a-uuid'] })).toMatchObject({ status: 400 });
    expect(await error('knowledge/source_create/', { type: 'files', agent_ids: ['00000000-0000-4000-8000-000000000009'] })).toMatchObject({
      status: 404,
      code: 'AGENT_NOT_FOUND',
      field: 'agent_ids',
    });
    expect(await error('knowledge/source_create/', { type: 'files', sync: 'hourly' })).toMatchObject({ status: 400, field: 'sync' });
    expect(await error('knowledge/source_create/', { type: 'files', extra: 1 })).toMatchObject({ status: 400 });
  });

  it('source_get, source_update, source_sync, source_delete', async () => {
    expect((await ctx.api('knowledge/source_get/', { query: { source_id: 'src_nope' } })).body.error).toMatchObject({ code: 'NOT_FOUND', field: 'source_id' });
    expect((await ctx.api('knowledge/source_get/', { query: { source_id: '../etc' } })).body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      field: 'source_id',
    });
    expect((await ctx.api('knowledge/source_get/')).body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'source_id' });
    const files = await createSource(ctx.api, { type: 'files' });
    expect(await error('knowledge/source_update/', { source_id: files.id, sync: 'daily' })).toMatchObject({ status: 400, field: 'sync' });
    expect(await error('knowledge/source_update/', { source_id: 'src_nope', name: 'x' })).toMatchObject({ status: 404, field: 'source_id' });
    expect(await error('knowledge/source_update/', { source_id: files.id, name: '' })).toMatchObject({ status: 400, field: 'name' });
    expect(
      (await ctx.api<{ source: Source }>('knowledge/source_update/', { body: { source_id: files.id, name: 'Renamed', agent_ids: [ctx.agentId] } })).body.data
        .source,
    ).toMatchObject({ name: 'Renamed' });
    expect(await error('knowledge/source_sync/', { source_id: 'src_nope' })).toMatchObject({ status: 404, field: 'source_id' });
    expect(await error('knowledge/source_delete/', {})).toMatchObject({ status: 400, field: 'source_id' });
    expect(await error('knowledge/source_delete/', { source_id: 'src_nope' })).toMatchObject({ status: 404, field: 'source_id' });
  });

  it('document_upload', async () => {
    const files = await createSource(ctx.api, { type: 'files' });
    const answers = await createSource(ctx.api, { type: 'answers' });
    const base = { source_id: files.id, name: 'x.md', content_type: 'text/markdown', content: '# X\n\ntext' };
    expect(await error('knowledge/document_upload/', { ...base, source_id: answers.id })).toMatchObject({ status: 400, field: 'source_id' });
    expect(await error('knowledge/document_upload/', { ...base, source_id: 'src_nope' })).toMatchObject({ status: 404, field: 'source_id' });
    expect(await error('knowledge/document_upload/', { ...base, content_type: 'application/x-msdownload' })).toMatchObject({
      status: 400,
      field: 'content_type',
    });
    expect(await error('knowledge/document_upload/', { ...base, content: '' })).toMatchObject({ status: 400, field: 'content' });
    expect(await error('knowledge/document_upload/', { ...base, content: '   \n  ' })).toMatchObject({ status: 400, field: 'content' });
    expect(await error('knowledge/document_upload/', { ...base, content_type: 'application/pdf', content: 'not base64 at all!' })).toMatchObject({
      status: 400,
      field: 'content',
    });
    expect(await error('knowledge/document_upload/', { ...base, name: undefined })).toMatchObject({ status: 400, field: 'name' });
    const tooBig = await ctx.api('knowledge/document_upload/', { body: { ...base, content: 'a'.repeat(6_000_000) } });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    const overFileCap = await ctx.api('knowledge/document_upload/', { body: { ...base, content: 'word '.repeat(900_000) } });
    expect(overFileCap.status).toBe(413);
    // The file as content or as an upload_id of knowledge/document_upload_url, exactly one of them.
    const { content: _content, ...withoutContent } = base;
    expect(await error('knowledge/document_upload/', withoutContent)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', field: 'content' });
    expect(await error('knowledge/document_upload/', { ...base, upload_id: 'upl_000000000000000000000000' })).toMatchObject({ status: 400, field: 'content' });
    expect(await error('knowledge/document_upload/', { ...withoutContent, upload_id: '../../etc/passwd' })).toMatchObject({ status: 400, field: 'upload_id' });
    expect(await error('knowledge/document_upload/', { ...withoutContent, upload_id: 'upl_000000000000000000000000' })).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      field: 'upload_id',
    });
  });

  it('document_upload_url: only where files are kept in S3; bounded as documented', async () => {
    const files = await createSource(ctx.api, { type: 'files' });
    const base = { source_id: files.id, bytes: 10_000_000, content_type: 'application/pdf' };
    // The local platform keeps files in a folder: no URL to hand out, the file goes as content.
    expect(await error('knowledge/document_upload_url/', base)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', field: 'bytes' });
    expect(await error('knowledge/document_upload_url/', { ...base, bytes: 21 * 1024 * 1024 })).toMatchObject({ status: 400, field: 'bytes' });
    expect(await error('knowledge/document_upload_url/', { ...base, bytes: 0 })).toMatchObject({ status: 400, field: 'bytes' });
    expect(await error('knowledge/document_upload_url/', { ...base, content_type: 'application/zip' })).toMatchObject({ status: 400, field: 'content_type' });
    expect(await error('knowledge/document_upload_url/', { ...base, source_id: 'src_nope' })).toMatchObject({ status: 404, field: 'source_id' });
  });

  it('answer_create, document_list, document_delete, search', async () => {
    expect(await error('knowledge/answer_create/', { question: 'Q?' })).toMatchObject({ status: 400, field: 'answer' });
    expect(await error('knowledge/answer_create/', { question: 'Q?', answer: 'A', url: 'javascript:alert(1)' })).toMatchObject({ status: 400, field: 'url' });
    const files = await createSource(ctx.api, { type: 'files' });
    expect(await error('knowledge/answer_create/', { source_id: files.id, question: 'Q?', answer: 'A' })).toMatchObject({ status: 400, field: 'source_id' });
    expect((await ctx.api('knowledge/document_list/', { query: { source_id: files.id, cursor: 'garbage' } })).body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      field: 'cursor',
    });
    expect((await ctx.api('knowledge/document_list/', { query: { source_id: files.id, limit: '0' } })).body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      field: 'limit',
    });
    expect(await error('knowledge/document_delete/', { document_id: 'doc_nope' })).toMatchObject({ status: 404, field: 'document_id' });
    expect(await error('knowledge/search/', { query: '' })).toMatchObject({ status: 400, field: 'query' });
    expect(await error('knowledge/search/', { query: 'x'.repeat(501) })).toMatchObject({ status: 400, field: 'query' });
    expect(await error('knowledge/search/', { query: 'x', limit: 0 })).toMatchObject({ status: 400, field: 'limit' });
    expect(await error('knowledge/search/', { query: 'x', agent_id: 'nope' })).toMatchObject({ status: 400, field: 'agent_id' });
    // Query text is data: LanceDB's query syntax characters are searched for, never interpreted.
    expect((await ctx.api('knowledge/search/', { body: { query: `") OR 1=1 -- '; DROP TABLE x; title:* AND NOT` } })).status).toBe(200);
  });
});
