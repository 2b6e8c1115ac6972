import type { Area } from '../area.js';
import { registerClientReport } from './control.js';

/** The client report: an account's journal judged against the rules a careful client follows. */
export const clientReport: Area = {
  name: 'client-report',
  control: [
    { name: 'client report', register: (app, { deps }) => registerClientReport(app, deps) },
  ],
};
