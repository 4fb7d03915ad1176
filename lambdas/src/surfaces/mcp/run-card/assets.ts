import { ApiError, ROUTES } from '@service/shared';
import type { HttpResult } from '../../../infra/http/event';
import { routeHandler } from '../../../infra/http/routes';
import { RUN_CARD_SCRIPT, RUN_CARD_STYLES } from './view';

export const RUN_CARD_SCRIPT_FILE = 'run-card.js';
export const RUN_CARD_STYLES_FILE = 'run-card.css';

const FILES: Record<string, { body: string; contentType: string }> = {
  [RUN_CARD_SCRIPT_FILE]: { body: RUN_CARD_SCRIPT, contentType: 'text/javascript; charset=utf-8' },
  [RUN_CARD_STYLES_FILE]: { body: RUN_CARD_STYLES, contentType: 'text/css; charset=utf-8' },
};

/**
 * GET /mcp-ui/{file}: the run card's script and stylesheet. The card's frame has an opaque origin, so the files are
 * loaded cross-origin as a classic script and a stylesheet (no CORS needed); nosniff keeps them to their types.
 */
export const createRunCardAssetHandler = () =>
  routeHandler(ROUTES.mcpUi, ['GET'], async (_event, params): Promise<HttpResult> => {
    const file = FILES[params.file!];
    if (!file) throw new ApiError('NOT_FOUND', `No such file: ${params.file}`);
    return {
      statusCode: 200,
      headers: { 'content-type': file.contentType, 'cache-control': 'public, max-age=300', 'x-content-type-options': 'nosniff' },
      body: file.body,
    };
  });
