import { createEmulator } from '../../src/emulator.js';
import { listen } from './servers.js';

const e = createEmulator({ seed: '0', clock: 'manual' });
const s = await listen(e.app.fetch);
console.log(s.url);
process.on('SIGINT', async () => {
  await s.close();
  e.close();
  process.exit(0);
});
