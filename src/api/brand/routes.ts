// GET and PUT /v1/brand (extension): the brand kit of the calling key's organization. Any key reads
// it; changing it needs a key created with the right to manage it (README, "Brand kits").
import Router from '@koa/router';
import { getBrandKit } from '../../db/brandKits.js';
import { DomainError, invalidInput } from '../../errors.js';
import type { AppDeps, AppState } from '../../http/context.js';
import { validate } from '../../http/validate.js';
import { brandView, replaceBrandKit } from '../../brand/kits.js';
import { decodeDataUrl } from '../../media/dataUrl.js';
import { brandPutSchema } from './schema.js';

export function brandRoutes(deps: AppDeps) {
  const router = new Router<AppState>();
  router.get('/v1/brand', async (ctx) => {
    ctx.body = await brandView(deps.storage, await getBrandKit(deps.db, ctx.state.auth.organizationId));
  });
  router.put(
    '/v1/brand',
    validate({ body: brandPutSchema }, async (ctx, { body }) => {
      const { organizationId, canManageBrand } = ctx.state.auth;
      if (!canManageBrand) {
        throw new DomainError(
          'forbidden',
          'brand_not_allowed',
          'This API key may not change the brand kit: use a key created with the right to manage it (dashboard, ' +
            'API keys), or the dashboard’s Brand page',
        );
      }
      const refuse = (reason: string) => invalidInput(`logo: ${reason}`, 'logo');
      let logo: Buffer | null | undefined = body.logo === null ? null : undefined;
      if (body.logo) {
        const decoded = decodeDataUrl(body.logo);
        if ('problem' in decoded) throw refuse(decoded.problem);
        logo = decoded.bytes;
      }
      const colors = {
        background: body.colors?.background ?? null,
        text: body.colors?.text ?? null,
        accent: body.colors?.accent ?? null,
      };
      const kit = await replaceBrandKit(
        deps,
        organizationId,
        { colors, font: body.font ?? null, logo, logo_on_closing: body.logo_on_closing ?? true },
        refuse,
      );
      ctx.state.log.info({ organization_id: organizationId }, 'brand kit replaced');
      ctx.body = await brandView(deps.storage, kit);
    }),
  );
  return router;
}
