import type { Area } from '../area.js';
import { registerWebhookEvents } from './control.js';
import { registerEvents } from './handlers.js';

/** Events: what happened to an account's resources, as webhooks send them. */
export const events: Area = {
  name: 'events',
  product: (app, { kinds, inferred }) => registerEvents(app, kinds, inferred),
  control: [
    { name: 'webhook events', register: (app, { deps }) => registerWebhookEvents(app, deps) },
  ],
};
