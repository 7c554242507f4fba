import { PGlite, types } from '@electric-sql/pglite';
let t=Date.now();
const db = new PGlite({ parsers: { [types.INT8]: (v) => BigInt(v) } });
await db.waitReady; console.log('ready ms', Date.now()-t);
t=Date.now();
const r = await db.query('select 9007199254740993::bigint as a, $1::bigint as b, now() as n', [12345678901234567n]);
console.log(r.rows, Date.now()-t);
await db.exec('create table t(id int); select 1; select 2;');
try { await db.query('select 1; select 2'); } catch(e) { console.log('multi err', e.message); }
const dump = await db.dumpDataDir('none'); console.log('dump size', dump.size);
t=Date.now(); const db2 = new PGlite({ loadDataDir: dump }); await db2.waitReady; console.log('load ms', Date.now()-t);
