// Started by scripts/unleash-oss (which sets the FLAGTUI_UNLEASH_* variables); not meant to be run by hand.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const env = process.env;
const need = (name) => {
  const v = env[name];
  if (!v) throw new Error(`${name} is not set (run scripts/unleash-oss start)`);
  return v;
};

// The pinned version's own node_modules (scripts/unleash or scripts/unleash/<version>).
// Unleash 8 is ESM with a named `start`; 5.x to 7.x are CommonJS (`start` may sit on `default`).
const pkgDir = need('FLAGTUI_UNLEASH_PKG_DIR');
const entry = createRequire(join(pkgDir, 'package.json')).resolve('unleash-server');
const unleash = await import(pathToFileURL(entry).href);
const start = unleash.start ?? unleash.default?.start;

// Unleash 6.x and 7.x record lifecycle stages in event listeners whose rejections nobody
// handles: deleting a flag right after archiving it fails the `feature_lifecycles` insert on its
// foreign key, and Node's default ends the whole server (6.10.1 also throws it from an event
// emitter, as an uncaught exception). A test server logs it and goes on.
process.on('unhandledRejection', (reason) => {
  console.error('[flagtui start.mjs] unhandled rejection (server kept running):', reason);
});
process.on('uncaughtException', (error) => {
  console.error('[flagtui start.mjs] uncaught exception (server kept running):', error);
});
const httpPort = Number(need('FLAGTUI_UNLEASH_HTTP_PORT'));
const secret = readFileSync(need('FLAGTUI_UNLEASH_TOKEN_FILE'), 'utf8').split('\n')[0].trim();

await start({
  db: {
    host: '127.0.0.1',
    port: Number(need('FLAGTUI_UNLEASH_PG_PORT')),
    user: 'postgres',
    password: '',
    database: need('FLAGTUI_UNLEASH_DB'),
    ssl: false,
  },
  server: {
    host: '127.0.0.1',
    port: httpPort,
    unleashUrl: `http://127.0.0.1:${httpPort}`,
  },
  authentication: {
    // Only inserted when the token table is empty (first start); scripts/unleash-oss keeps it stable.
    initApiTokens: [
      { type: 'admin', tokenName: 'flagtui', environment: '*', project: '*', secret },
    ],
  },
  versionCheck: { enable: false },
  // Unleash refuses integration (addon) URLs on private/loopback addresses by default
  // (400 BadDataError on create, blocked delivery). This server is local-only and its tests
  // deliver to 127.0.0.1, so allow them unless FLAGTUI_UNLEASH_ALLOW_PRIVATE_URLS=false.
  allowPrivateUrlInIntegration: env.FLAGTUI_UNLEASH_ALLOW_PRIVATE_URLS !== 'false',
  logLevel: env.FLAGTUI_UNLEASH_LOG_LEVEL || 'info',
});
