import type { Area } from '../area.js';
import { registerBundles } from './control-bundles.js';

/** Replay bundles: a world at a mark and the calls since. */
export const bundles: Area = {
  name: 'bundles',
  control: [
    {
      name: 'bundles',
      register: (app, { deps, bundles }) =>
        registerBundles(app, deps, bundles.recorder, bundles.settings),
    },
  ],
};
