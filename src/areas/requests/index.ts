import type { Area } from '../area.js';
import { registerJournal } from './control-journal.js';
import { registerJournalStream } from './control-journal-stream.js';
import { registerRequests } from './handlers.js';

/** The request journal: what was called and answered. */
export const requests: Area = {
  name: 'requests',
  product: (app, { inferred }) => registerRequests(app, inferred),
  control: [
    { name: 'journal', register: (app, { deps }) => registerJournal(app, deps) },
    { name: 'journal stream', register: (app, { deps }) => registerJournalStream(app, deps) },
  ],
};
