// node-postgres session: simple and parameterised queries, a named prepared
// statement run twice, a transaction, errors, then a table (needs tables).
const { Client } = require('pg');
const fs = require('fs');
const [host, port, out] = process.argv.slice(2);
const lines = [];

function norm(v) {
  if (v instanceof Date) return { date: v.toISOString() };
  if (Buffer.isBuffer(v)) return { bytea: v.toString('hex') };
  if (Array.isArray(v)) return v.map(norm);
  if (v && typeof v === 'object') {
    const o = {};
    for (const k of Object.keys(v).sort()) o[k] = norm(v[k]);
    return o;
  }
  return v;
}
function res(r) {
  if (Array.isArray(r)) return r.map(res);
  return { command: r.command, rowCount: r.rowCount, fields: (r.fields || []).map(f => [f.name, f.dataTypeID]), rows: r.rows };
}
async function step(name, fn, needs = []) {
  const rec = { step: name, needs };
  try {
    rec.ok = norm(await fn());
  } catch (e) {
    rec.error = { sqlstate: e.code || e.name, message: String(e.message).split('\n')[0] };
  }
  lines.push(JSON.stringify(rec));
}

(async () => {
  const c = new Client({ host, port: Number(port), user: 'postgres', database: 'postgres' });
  await c.connect();
  await step('simple query', async () => res(await c.query("SELECT 1 AS one, 'two' AS two, 3.5::numeric AS three, true AS t, NULL AS n")));
  await step('multi-statement simple query', async () => res(await c.query("SELECT 1 AS a; SELECT 'b' AS b")));
  await step('parameterised query', async () => res(await c.query('SELECT $1::int + $2::int AS sum, $3::text AS s, $4::text IS NULL AS isnull', [40, 2, "it's", null])));
  await step('untyped parameter', async () => res(await c.query('SELECT $1 AS v', ['hello'])));
  await step('named prepared statement x2', async () => {
    const r = [];
    for (const v of [1, 2]) r.push(res(await c.query({ name: 'kova_add', text: 'SELECT $1::int * 10 AS tens, $2::text AS label', values: [v, 'n' + v] })));
    return r;
  });
  await step('rowMode array', async () => res(await c.query({ text: 'VALUES (1, $1::text), (2, $2::text)', values: ['x', 'y'], rowMode: 'array' })));
  await step('transaction commit', async () => {
    const r = [];
    r.push((await c.query('BEGIN')).command);
    r.push((await c.query("SET LOCAL application_name = 'node-txn'")).command);
    r.push((await c.query('SHOW application_name')).rows);
    r.push((await c.query('COMMIT')).command);
    return r;
  });
  await step('transaction error + rollback', async () => {
    const r = [];
    await c.query('BEGIN');
    try { await c.query('SELECT 1/0'); } catch (e) { r.push(e.code); }
    try { await c.query('SELECT 1'); } catch (e) { r.push(e.code); }
    r.push((await c.query('ROLLBACK')).command);
    r.push((await c.query('SELECT 2 AS after')).rows);
    return r;
  });
  await step('parameterised error', async () => res(await c.query('SELECT $1::int', ['not-a-number'])));
  await step('syntax error', async () => res(await c.query('SELEC 1')));
  await step('create table', async () => res(await c.query('CREATE TABLE node_items (id serial PRIMARY KEY, name text)')), ['tables']);
  await step('insert returning', async () => res(await c.query('INSERT INTO node_items (name) VALUES ($1), ($2) RETURNING id', ['a', 'b'])), ['tables']);
  await step('select table', async () => res(await c.query('SELECT id, name FROM node_items ORDER BY id')), ['tables']);
  await step('drop table', async () => res(await c.query('DROP TABLE node_items')), ['tables']);
  // A deferred foreign key of an autocommit statement (Parse/Bind/Execute,
  // then Sync): checked when the Sync commits, the error reported there.
  await step('deferred foreign key at sync', async () => {
    await c.query('CREATE TABLE node_parent (id int PRIMARY KEY)');
    await c.query('CREATE TABLE node_child (parent_id int REFERENCES node_parent DEFERRABLE INITIALLY DEFERRED)');
    let failed = null;
    try {
      await c.query('INSERT INTO node_child VALUES ($1)', [5]);
    } catch (e) {
      failed = { code: e.code, message: e.message, detail: e.detail };
    }
    const rows = res(await c.query('SELECT count(*)::int AS n FROM node_child'));
    await c.query('DROP TABLE node_child, node_parent');
    return { failed, rows };
  }, ['tables']);
  await c.end();
  fs.writeFileSync(out, lines.join('\n') + '\n');
})().catch(e => { fs.writeFileSync(out, lines.join('\n') + '\n'); console.error(e); process.exit(2); });
