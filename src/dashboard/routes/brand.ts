// The organization's brand kit (extension): members set the logo, colours, type style and whether the
// closing scene shows the logo. Every member administers their organization (the dashboard has no
// other role), so every member may change it.
import Router from '@koa/router';
import { getBrandKit } from '../../db/brandKits.js';
import { DomainError, invalidInput } from '../../errors.js';
import type { AppDeps } from '../../http/context.js';
import { replaceBrandKit, textContrast } from '../../brand/kits.js';
import { BRAND_FONTS, HEX_COLOUR, type BrandColours, type BrandFont } from '../../shared.js';
import type { DashboardContext, DashboardState } from '../context.js';
import { mediaUrl } from '../media.js';
import { sendPage, seeOther } from '../respond.js';
import { form, formFile, member, requireMember } from '../session.js';
import { brandPage, kitValues, type BrandFormValues } from '../views/brand.js';

const LABELS: Record<keyof BrandColours, string> = { background: 'Background', text: 'Text', accent: 'Accent' };

export function brandRoutes(deps: AppDeps): Router<DashboardState> {
  const { db, storage } = deps;
  const router = new Router<DashboardState>();

  const show = async (
    ctx: DashboardContext,
    values?: BrandFormValues,
    message?: { kind: 'ok' | 'error'; text: string },
    status = 200,
  ) => {
    const session = member(ctx);
    const kit = await getBrandKit(db, session.organizationId);
    const shown = values ?? kitValues(kit);
    // The warning follows what the form shows: a refused submission is checked too.
    const colours = { background: hexOrNull(shown.background), text: hexOrNull(shown.text), accent: null };
    sendPage(
      ctx,
      brandPage({
        session,
        kit,
        values: shown,
        logoUrl: await mediaUrl(ctx, storage, kit?.logo?.key ?? null),
        contrast: textContrast(colours),
        message,
      }),
      status,
    );
  };

  router.get('/dashboard/brand', requireMember(), async (ctx) => {
    await show(ctx, undefined, ctx.query.notice === 'saved' ? { kind: 'ok', text: 'Brand kit saved.' } : undefined);
  });

  router.post('/dashboard/brand', requireMember(), async (ctx) => {
    const session = member(ctx);
    const f = form(ctx);
    const values: BrandFormValues = {
      background: (f.get('background') ?? '').trim(),
      text: (f.get('text') ?? '').trim(),
      accent: (f.get('accent') ?? '').trim(),
      font: f.get('font') ?? '',
      logo_on_closing: f.get('logo_on_closing') === 'on',
    };
    try {
      const colors = {} as BrandColours;
      for (const name of ['background', 'text', 'accent'] as const) {
        if (values[name] && !hexOrNull(values[name]))
          throw invalidInput(
            `${LABELS[name]}: write the colour as #rrggbb (for example #0b1f3a), or leave it empty`,
            name,
          );
        colors[name] = hexOrNull(values[name]);
      }
      if (values.font && !(BRAND_FONTS as readonly string[]).includes(values.font))
        throw invalidInput(`Font family: choose one of ${BRAND_FONTS.join(', ')}`, 'font');
      const upload = formFile(ctx, 'logo');
      const logo = upload ? upload.bytes : f.get('remove_logo') === 'on' ? null : undefined;
      const font = (values.font || null) as BrandFont | null;
      await replaceBrandKit(
        deps,
        session.organizationId,
        { colors, font, logo, logo_on_closing: values.logo_on_closing },
        (reason) => invalidInput(`Logo: ${reason}`, 'logo'),
      );
    } catch (err) {
      if (!(err instanceof DomainError) || err.kind !== 'invalid_input') throw err;
      return show(ctx, values, { kind: 'error', text: err.message }, 400);
    }
    ctx.state.log.info('dashboard: brand kit saved');
    seeOther(ctx, '/dashboard/brand?notice=saved');
  });
  return router;
}

/** A #rrggbb colour, lower-cased; null for anything else (empty included). */
function hexOrNull(value: string): string | null {
  const lower = value.toLowerCase();
  return HEX_COLOUR.test(lower) ? lower : null;
}
