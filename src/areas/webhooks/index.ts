import type { Area } from '../area.js';
import { registerWebhookChaos } from './control-chaos.js';
import { registerWebhookDeliveries } from './control-deliveries.js';
import { registerWebhookSeeding } from './control-seeding.js';
import { createWebhookEndpointRepo } from './endpoints-store.js';
import { registerWebhooks } from './handlers.js';

/** Webhook endpoints, their deliveries and the chaos that can strike them. */
export const webhooks: Area = {
  name: 'webhooks',
  product: (app, { inferred }) => registerWebhooks(app, inferred),
  control: [
    { name: 'webhook seeding', register: (app, { deps }) => registerWebhookSeeding(app, deps) },
    {
      name: 'webhook deliveries',
      register: (app, { deps }) => registerWebhookDeliveries(app, deps),
    },
    { name: 'webhook chaos', register: (app, { deps }) => registerWebhookChaos(app, deps) },
  ],
  repositories: (db) => ({ webhookEndpoints: createWebhookEndpointRepo(db) }),
};
