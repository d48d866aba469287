-- regtype: type names resolved as regtypein reads them, printed as
-- regtypeout does, and their OIDs.
SELECT 'int4'::regtype, 'character varying(10)'::regtype, 'int[]'::regtype,
       'pg_catalog.int8'::regtype, 'double precision'::regtype,
       'char(3)'::regtype, 'xid8'::regtype, 'timestamptz'::regtype;
SELECT 'integer'::regtype::oid, 'text[]'::regtype::oid, 'tid'::regtype::oid;
SELECT pg_typeof(1) = 'int4'::regtype AS same,
       pg_typeof(1) <> 'bigint'::regtype AS differs,
       pg_typeof(1)::text, pg_typeof('a'::text)::oid,
       pg_typeof(pg_typeof(1)), pg_typeof('int4'::regtype);
SELECT 'nosuch'::regtype;
SELECT 'foo bar baz'::regtype;
SELECT 'int4, 1'::regtype;
CREATE TYPE regtype_mood AS ENUM ('a');
CREATE TABLE regtype_t (a int, b varchar(5), c regtype_mood, d numeric[]);
SELECT 'regtype_mood'::regtype,
       'regtype_mood'::regtype::oid = (SELECT oid FROM pg_type
                                       WHERE typname = 'regtype_mood') AS oid;
SELECT a.attname, a.atttypid::regtype, a.atttypid::regtype::oid = a.atttypid,
       a.atttypid::regtype = 'integer'::regtype AS is_int
  FROM pg_attribute a
  WHERE a.attrelid = 'regtype_t'::regclass AND a.attnum > 0 ORDER BY a.attnum;
SELECT to_regtype('int4'), to_regtype('regtype_mood'), to_regtype('nosuch'),
       to_regtype('nosuch') IS NULL AS missing;
SELECT format_type(27, -1), format_type(5069, NULL), 'xid8'::regtype::oid;
DROP TABLE regtype_t;
DROP TYPE regtype_mood;
