/**
 * A fresh database on the throwaway PostgreSQL server (TEST_PG_URL), for a test file or a test's app servers, and its
 * removal. Used by the integration setup (Vitest) and the scale-out journey (Playwright).
 */
import pg from "pg";

export interface ThrowawayDatabase {
  url: string;
  drop: () => Promise<void>;
}

export async function createThrowawayDatabase(base: string, prefix: string): Promise<ThrowawayDatabase> {
  const name = `${prefix}_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  await withClient(base, (c) => c.query(`create database ${name}`));
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      withClient(base, async (c) => {
        // pg's pool.end() resolves before its sockets have closed; wait for them to go so `force` does not terminate
        // a closing connection (which surfaces as an unhandled 57P01 error and fails the run).
        for (let i = 0; i < 100; i++) {
          const { rows } = await c.query("select count(*)::int as n from pg_stat_activity where datname = $1", [name]);
          if (rows[0].n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await c.query(`drop database if exists ${name} with (force)`);
      }),
  };
}

async function withClient<T>(connectionString: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}
