import pg from 'pg';
const c = new pg.Client({ connectionString: 'postgres://tidings@127.0.0.1:46777/bench_pg1' });
await c.connect();
for (const q of ["SELECT COUNT(*) n, COUNT(leased_by) leased FROM deliveries", "SELECT id, subscribers, delivered FROM changes ORDER BY id DESC LIMIT 2", "SELECT * FROM counters", "SELECT state, left(query, 60) q, wait_event FROM pg_stat_activity WHERE datname='bench_pg1'"]) console.log((await c.query(q)).rows);
await c.end();
