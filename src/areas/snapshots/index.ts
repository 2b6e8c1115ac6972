import type { Area } from '../area.js';
import { registerSnapshots } from './control-snapshots.js';
import { createSnapshotShelf } from './snapshots-store.js';

/** Named world snapshots: taken, restored, downloaded. */
export const snapshots: Area = {
  name: 'snapshots',
  control: [{ name: 'snapshots', register: (app, { deps }) => registerSnapshots(app, deps) }],
  repositories: (db) => ({ snapshots: createSnapshotShelf(db) }),
};
