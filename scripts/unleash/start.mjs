// Started by scripts/unleash-oss (which sets the FLAGTUI_UNLEASH_* variables); not meant to be run by hand.
import { readFileSync } from 'node:fs';
import { start } from 'unleash-server';

const env = process.env;
const need = (name) => {
  const v = env[name];
  if (!v) throw new Error(`${name} is not set (run scripts/unleash-oss start)`);
  return v;
};
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
