-- Set-returning functions in a select list run in lockstep (PostgreSQL 10+):
-- the shorter ones are padded with NULLs; unnest and generate_subscripts
-- side by side, in FROM too.
CREATE TABLE srf_arrays (id int, a int[]);
INSERT INTO srf_arrays VALUES (1, '{1,2,3}'), (2, '[5:6]={7,8}'), (3, NULL),
  (4, '{}'), (5, '{{1,2},{3,4},{5,6}}');
SELECT id, unnest(a), generate_subscripts(a, 1) FROM srf_arrays ORDER BY id, 3;
SELECT id, generate_subscripts(a, 1, true) AS s, unnest(a) AS u
  FROM srf_arrays ORDER BY id, u;
SELECT id, generate_subscripts(a, 2) FROM srf_arrays ORDER BY id, 2;
SELECT id, generate_subscripts(a, 1) + 10 AS shifted FROM srf_arrays ORDER BY 1, 2;
SELECT id, generate_subscripts(a, NULL) FROM srf_arrays;
SELECT id, generate_subscripts(a, 3) FROM srf_arrays;
SELECT generate_subscripts('{{1,2},{3,4}}'::int[], 2, true), unnest('{1,2,3}'::int[]);
SELECT generate_subscripts(ARRAY['a','b','c'], 1) AS i, unnest(ARRAY['x','y']) AS v;
SELECT pg_catalog.generate_subscripts(ARRAY[1,2], 1) WHERE false;
SELECT generate_subscripts(42, 1);
SELECT generate_subscripts(ARRAY[1,2], 'x');
-- In FROM.
SELECT * FROM generate_subscripts('{4,5,6}'::int[], 1) WITH ORDINALITY AS g(i, n);
SELECT s.id, g FROM srf_arrays s, generate_subscripts(s.a, 1, true) g ORDER BY 1, 2 DESC;
-- An index's key columns with their positions (an int2vector counts from 0),
-- as SQLAlchemy reads a primary key.
CREATE TABLE srf_pk (a int, b int, c int, PRIMARY KEY (c, a));
SELECT i.indkey, unnest(i.indkey) AS attnum, generate_subscripts(i.indkey, 1) AS ord
  FROM pg_index i WHERE i.indrelid = 'srf_pk'::regclass;
SELECT a.attname, k.ord
  FROM pg_attribute a
  JOIN (SELECT indrelid, unnest(indkey) AS attnum, generate_subscripts(indkey, 1) AS ord
          FROM pg_index WHERE indrelid = 'srf_pk'::regclass) k
    ON a.attrelid = k.indrelid AND a.attnum = k.attnum
  ORDER BY k.ord;
DROP TABLE srf_arrays, srf_pk;
