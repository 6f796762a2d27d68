// Organization webhook endpoints (extension): the POST /v1/webhook_endpoints body and the endpoint object.
import { z } from 'zod';

export const webhookEndpointCreateSchema = z
  .strictObject({
    url: z
      .string()
      .max(2048)
      .describe(
        'A public HTTPS URL that receives `video.completed` and `video.failed` for every video the organization ' +
          'creates on /v1/videos; localhost, private and link-local addresses are refused (400 `invalid_webhook_url`)',
      ),
  })
  .describe('Extension: an organization webhook endpoint to add');

export const webhookEndpointSchema = z
  .strictObject({
    id: z.string().describe('`we_…`'),
    object: z.literal('webhook_endpoint'),
    url: z.string(),
    created_at: z.number().int().describe('Unix timestamp, seconds'),
  })
  .describe('Extension: an organization webhook endpoint');

export const webhookEndpointList = z
  .strictObject({ object: z.literal('list'), data: z.array(webhookEndpointSchema) })
  .describe('Extension: the organization’s webhook endpoints, oldest first');

export const webhookEndpointDeleted = z
  .strictObject({ id: z.string(), object: z.literal('webhook_endpoint.deleted'), deleted: z.literal(true) })
  .describe('Extension: a removed webhook endpoint');
