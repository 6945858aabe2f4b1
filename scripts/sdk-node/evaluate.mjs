// What the official Node SDK (unleash-client) answers for one flag, context by context.
// stdin: {"url", "token", "appName", "environment", "flag", "contexts": [...]} (the client
// token on stdin, never in argv). stdout: one JSON array, for each context in order,
// {"enabled", "variant", "variantEnabled", "payload"}. The SDK fetches the client API once,
// keeps its state in memory and sends no metrics.
import { InMemStorageProvider, startUnleash } from 'unleash-client';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const asked = JSON.parse(Buffer.concat(chunks).toString('utf8'));

const unleash = await startUnleash({
  url: `${asked.url}/api`,
  appName: asked.appName,
  environment: asked.environment,
  customHeaders: { Authorization: asked.token },
  disableMetrics: true,
  refreshInterval: 3_600_000, // 0 would fetch nothing: one fetch, at start, is all it needs
  storageProvider: new InMemStorageProvider(),
});
try {
  const answers = asked.contexts.map((context) => {
    const variant = unleash.getVariant(asked.flag, context);
    return {
      enabled: unleash.isEnabled(asked.flag, context),
      variant: variant.name,
      variantEnabled: variant.enabled,
      payload: variant.payload ?? null,
    };
  });
  process.stdout.write(JSON.stringify(answers));
} finally {
  unleash.destroy();
}
