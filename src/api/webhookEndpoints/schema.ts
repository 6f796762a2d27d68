// Organization webhook endpoints (extension): the POST /v1/webhook_endpoints body and the endpoint object.
import { z } from 'zod';

const url = z
  .string()
  .max(2048)
  .describe(
    'A public HTTPS URL that receives `video.completed` and `video.failed` for every video the organization ' +
      'creates on /v1/videos; localhost, private and link-local addresses are refused (400 `invalid_webhook_url`)',
  );
const id = z.string().describe('The endpoint’s id, `we_…`');

export const webhookEndpointCreateSchema = z
  .strictObject({ url })
  .describe('Extension: an organization webhook endpoint to add');

export const webhookEndpointSchema = z
  .strictObject({
    id,
    object: z.literal('webhook_endpoint').describe('Always `webhook_endpoint`'),
    url,
    created_at: z.number().int().describe('When it was added: Unix timestamp, seconds'),
  })
  .describe('Extension: an organization webhook endpoint');

export const webhookEndpointList = z
  .strictObject({
    object: z.literal('list').describe('Always `list`'),
    data: z.array(webhookEndpointSchema).describe('The endpoints, oldest first'),
  })
  .describe('Extension: the organization’s webhook endpoints');

export const webhookEndpointDeleted = z
  .strictObject({
    id,
    object: z.literal('webhook_endpoint.deleted').describe('Always `webhook_endpoint.deleted`'),
    deleted: z.literal(true).describe('Always true'),
  })
  .describe('Extension: a removed webhook endpoint');
