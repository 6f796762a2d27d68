// Admin CLI for operators (members use the dashboard at /dashboard): `npm run admin -- <command> [options]`. Prints
// JSON.
//   create-org --name NAME [--credits CENTS]     create-key --org ORG_ID --name NAME
//   list-keys --org ORG_ID    revoke-key KEY_ID    delete-key KEY_ID    add-credits --org ORG_ID --cents N
//   webhook-settings --org ORG_ID [--enable TYPE,..] [--disable TYPE,..]
//   webhook-secret --org ORG_ID    rotate-webhook-secret --org ORG_ID
//   create-member --org ORG_ID --email EMAIL --password-stdin    set-member-password --email EMAIL --password-stdin
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { loadConfigOrExit } from '../config.js';
import { createApiKey, deleteApiKey, listApiKeys, revokeApiKey } from '../db/apiKeys.js';
import { migrate } from '../db/migrate.js';
import { addCredits, createOrganization, getOrganization } from '../db/organizations.js';
import { createMember, setMemberPasswordHash } from '../db/members.js';
import { createPool, type Db } from '../db/pool.js';
import { deleteMemberSessions } from '../db/sessions.js';
import {
  getWebhookSettings,
  rotateWebhookSecret,
  setEnabledWebhookEvents,
  signingSecretsView,
} from '../db/webhooks.js';
import { hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../dashboard/password.js';
import { WEBHOOK_EVENT_TYPES } from '../shared.js';

const cents = z.coerce.number().int().min(0).max(1e12);
const name = z.string().trim().min(1).max(200);
const id = z.string().min(1).max(100);
const eventTypes = z
  .string()
  .optional()
  .transform((v) => (v ? v.split(',').map((t) => t.trim()) : []))
  .pipe(z.array(z.enum(WEBHOOK_EVENT_TYPES)));

const email = z.email().max(320);
const password = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `the password needs at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH);

type Command = {
  usage: string;
  run(db: Db, opts: Record<string, string | boolean | undefined>, args: string[]): Promise<unknown>;
};

const commands: Record<string, Command> = {
  'create-org': {
    usage: 'create-org --name NAME [--credits CENTS]',
    run: (db, o) => createOrganization(db, name.parse(o.name), cents.parse(o.credits ?? 0)),
  },
  'create-key': {
    usage: 'create-key --org ORG_ID --name NAME [--manage-brand]',
    run: async (db, o) => {
      const org = id.parse(o.org);
      if (!(await getOrganization(db, org))) throw new UsageError(`unknown organization ${org}`);
      const key = await createApiKey(
        db,
        org,
        name.parse(o.name),
        { manageBrand: o['manage-brand'] === true },
        loadConfigOrExit().keysPerOrganization,
      );
      return { ...key, note: 'Store this key now: it is shown only once.' };
    },
  },
  'list-keys': { usage: 'list-keys --org ORG_ID', run: (db, o) => listApiKeys(db, id.parse(o.org)) },
  'revoke-key': {
    usage: 'revoke-key KEY_ID',
    run: async (db, _o, [keyId]) => (await revokeApiKey(db, id.parse(keyId))) ?? notFound(`key ${keyId}`),
  },
  'delete-key': {
    usage: 'delete-key KEY_ID',
    run: async (db, _o, [keyId]) =>
      (await deleteApiKey(db, id.parse(keyId))) ? { id: keyId, deleted: true } : notFound(`key ${keyId}`),
  },
  'add-credits': {
    usage: 'add-credits --org ORG_ID --cents N',
    run: async (db, o) =>
      (await addCredits(db, id.parse(o.org), cents.parse(o.cents))) ?? notFound(`organization ${o.org}`),
  },
  // Webhook event toggles and the signing secret (see the README's Webhooks section).
  'webhook-settings': {
    usage:
      'webhook-settings --org ORG_ID [--enable TYPE,..] [--disable TYPE,..]' +
      `   (types: ${WEBHOOK_EVENT_TYPES.join(', ')})`,
    run: async (db, o) => {
      const s =
        (await setEnabledWebhookEvents(db, id.parse(o.org), {
          enable: eventTypes.parse(o.enable),
          disable: eventTypes.parse(o.disable),
        })) ?? notFound(`organization ${o.org}`);
      return { organization_id: s.organization_id, enabled_events: s.enabled_events, updated_at: s.updated_at };
    },
  },
  'webhook-secret': {
    usage: 'webhook-secret --org ORG_ID',
    run: async (db, o) =>
      signingSecretsView((await getWebhookSettings(db, id.parse(o.org))) ?? notFound(`organization ${o.org}`)),
  },
  'rotate-webhook-secret': {
    usage: 'rotate-webhook-secret --org ORG_ID   (the previous secret keeps signing for WEBHOOK_SECRET_GRACE_SECONDS)',
    run: async (db, o) =>
      signingSecretsView(
        (await rotateWebhookSecret(db, id.parse(o.org), loadConfigOrExit().webhooks.secretGraceSeconds)) ??
          notFound(`organization ${o.org}`),
      ),
  },
  // Dashboard members. The password is read from the first line of stdin, never from the command line
  // (which other users and shell history can see).
  'create-member': {
    usage: 'create-member --org ORG_ID --email EMAIL --password-stdin   (a dashboard sign-in for the organization)',
    run: async (db, o) => {
      const org = id.parse(o.org);
      const address = email.parse(o.email);
      if (!(await getOrganization(db, org))) throw new UsageError(`unknown organization ${org}`);
      const member = await createMember(db, {
        organizationId: org,
        email: address,
        passwordHash: await hashPassword(await passwordFromStdin(o)),
      });
      return { ...member, sign_in: '/dashboard/login' };
    },
  },
  'set-member-password': {
    usage: 'set-member-password --email EMAIL --password-stdin   (also signs the member out everywhere)',
    run: async (db, o) => {
      const address = email.parse(o.email);
      const member =
        (await setMemberPasswordHash(db, address, await hashPassword(await passwordFromStdin(o)))) ??
        notFound(`member ${address}`);
      await deleteMemberSessions(db, member.id);
      return { ...member, sessions_ended: true };
    },
  },
};

async function passwordFromStdin(o: Record<string, unknown>): Promise<string> {
  if (o['password-stdin'] !== true) throw new UsageError('pass --password-stdin and write the password to stdin');
  if (process.stdin.isTTY) process.stderr.write('Password (shown as typed): ');
  const lines = readline.createInterface({ input: process.stdin, terminal: false });
  for await (const line of lines) {
    lines.close();
    return password.parse(line);
  }
  throw new UsageError('no password on stdin');
}

class UsageError extends Error {}
const notFound = (what: string): never => {
  throw new UsageError(`unknown ${what}`);
};

function usage(): string {
  return `usage: npm run admin -- <command>\n${Object.values(commands)
    .map((c) => `  ${c.usage}`)
    .join('\n')}`;
}

async function main(argv: string[]): Promise<number> {
  const [commandName, ...rest] = argv;
  const command = commandName ? commands[commandName] : undefined;
  if (!command) {
    console.error(JSON.stringify({ error: { code: 'usage', message: usage() } }));
    return 2;
  }
  const config = loadConfigOrExit();
  const db = createPool(config.databaseUrl, 2);
  try {
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        credits: { type: 'string' },
        org: { type: 'string' },
        cents: { type: 'string' },
        enable: { type: 'string' },
        disable: { type: 'string' },
        email: { type: 'string' },
        'password-stdin': { type: 'boolean' },
        'manage-brand': { type: 'boolean' },
      },
    });
    await migrate(db);
    console.log(JSON.stringify(await command.run(db, values, positionals), null, 2));
    return 0;
  } catch (err) {
    const message =
      err instanceof z.ZodError
        ? `invalid argument: ${err.issues.map((i) => i.message).join('; ')}`
        : (err as Error).message;
    const code =
      err instanceof UsageError ||
      err instanceof z.ZodError ||
      (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
        ? 'usage'
        : 'failed';
    console.error(JSON.stringify({ error: { code, message: code === 'usage' ? `${message}\n${usage()}` : message } }));
    return code === 'usage' ? 2 : 1;
  } finally {
    await db.end();
  }
}

process.exitCode = await main(process.argv.slice(2));
