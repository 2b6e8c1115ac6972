// Adds the lock entries for Biome's other-platform CLI packages, which this machine's npm
// registry mirror does not serve (npm install drops them, and npm ci then rejects the lockfile).
// Run after every `npm install`: node scripts/lock-platforms.mjs package-lock.json
import fs from 'node:fs';

const f = process.argv[2];
const lock = JSON.parse(fs.readFileSync(f, 'utf8'));
const biome = lock.packages['node_modules/@biomejs/biome'];
const plat = {
  'android-arm64': ['android', 'arm64'],
  'android-x64': ['android', 'x64'],
  'darwin-arm64': ['darwin', 'arm64'],
  'darwin-x64': ['darwin', 'x64'],
  'linux-arm64': ['linux', 'arm64', 'glibc'],
  'linux-arm64-musl': ['linux', 'arm64', 'musl'],
  'linux-x64': ['linux', 'x64', 'glibc'],
  'linux-x64-musl': ['linux', 'x64', 'musl'],
  'win32-arm64': ['win32', 'arm64'],
  'win32-x64': ['win32', 'x64'],
};
const out = {};
for (const [k, v] of Object.entries(lock.packages)) {
  out[k] = v;
  if (k === 'node_modules/@biomejs/biome') {
    for (const [name, [os, cpu, libc]] of Object.entries(plat)) {
      const key = `node_modules/@biomejs/cli-${name}`;
      if (lock.packages[key]) continue;
      out[key] = {
        version: biome.version,
        cpu: [cpu],
        dev: true,
        ...(libc ? { libc: [libc] } : {}),
        license: 'MIT OR Apache-2.0',
        optional: true,
        os: [os],
        engines: { node: '>=14.21.3' },
      };
    }
  }
}
lock.packages = out;
fs.writeFileSync(f, `${JSON.stringify(lock, null, 2)}\n`);
