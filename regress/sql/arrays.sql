-- Arrays: literals, constructors, subscripts, casts, operators, functions,
-- array columns in tables, aggregation and unnest.
-- Text input and output.
SELECT '{1,2,3}'::int[], '{}'::text[], '{NULL,"NULL",null}'::text[];
SELECT ' { 1 , 2 } '::int[], '{a b, c }'::text[], '{"",x}'::text[];
SELECT '{"a\"b",c\,d,"\\"}'::text[], '{  "x"  }'::text[];
SELECT '{{1,2},{3,4}}'::int[], '[0:1]={1,2}'::int[], '[-2:-1]={1,2}'::int[];
SELECT '[1:2][1:1]={{1},{2}}'::int[], '[1:2] = {1,2}'::int[], '[3]={1,2,3}'::int[];
SELECT '{"{}",",","a}b"}'::text[], '{true,f,yes}'::bool[];
SELECT '{1.50,NaN,-0}'::numeric[], '{1.5,Infinity,1e300}'::float8[];
SELECT '{2024-01-02,infinity}'::date[], '{"2024-01-02 03:04:05"}'::timestamp[];
SELECT '{"2024-01-02 03:04:05+02"}'::timestamptz[], '{"1 day 02:00"}'::interval[];
SELECT '{12:34:56}'::time[], '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}'::uuid[];
SELECT '{"\\x0102",NULL}'::bytea[], '{"{\"a\": 1}",null}'::jsonb[], '{"[1, 2]"}'::json[];
SELECT '{ab,"c d"}'::varchar(2)[], '{a,bc}'::char(2)[], '{x}'::bpchar[];
SELECT '{1,2}'::int2[], '{9000000000}'::int8[], '{1.5}'::float4[];
SELECT '{{a,b},{c,d}}'::text[][], '{1}'::integer ARRAY, '{1}'::_int4;
-- Malformed literals.
SELECT '1,2'::int[];
SELECT '{1,2'::int[];
SELECT '{1,2}x'::int[];
SELECT '{{1},2}'::int[];
SELECT '{{1,2},{3}}'::int[];
SELECT '[1:2]{1,2}'::int[];
SELECT '[1:3]={1,2}'::int[];
SELECT '[2:1]={}'::int[];
SELECT '['::int[];
SELECT '[1'::int[];
SELECT '[1:'::int[];
SELECT '[1:2]=1'::int[];
SELECT '{1,{2}}'::int[];
SELECT '{"a}'::text[];
SELECT '{a"b"}'::text[];
SELECT '{,}'::text[];
SELECT '{1,}'::int[];
SELECT '{{}}'::int[];
SELECT '{1 2}'::int[];
SELECT '{a}'::int[];
SELECT '{99999999999}'::int[];
SELECT '{abc}'::varchar(2)[];
SELECT '{{{{{{{1}}}}}}}'::int[];
-- Type names and pg_typeof.
SELECT pg_typeof('{1}'::int[]), pg_typeof('{1}'::text[][]), pg_typeof('{1}'::varchar(3)[]);
SELECT pg_typeof(ARRAY[1,2]), pg_typeof(ARRAY[1,2.5]), pg_typeof(ARRAY['a','b']);
SELECT pg_typeof(ARRAY['a'::varchar,'b'::text]), pg_typeof(ARRAY[now()]);
-- Constructors.
SELECT ARRAY[1,2,3], ARRAY[1,NULL], ARRAY['a','b c'], ARRAY[1,2.5];
SELECT ARRAY[[1,2],[3,4]], ARRAY[ARRAY[1,2],ARRAY[3,4]], ARRAY[]::int[];
SELECT ARRAY[ARRAY['a'],ARRAY['b']], ARRAY[1,2]::bigint[], ARRAY['abc']::varchar(2)[];
SELECT ARRAY[]::text[][] AS empty, ARRAY[NULL]::int[];
SELECT ARRAY[1,true];
SELECT ARRAY[];
SELECT ARRAY[ARRAY[1,2],ARRAY[3]];
SELECT ARRAY[1,'x'];
SELECT ARRAY[ARRAY[1], NULL];
-- Subscripts and slices.
SELECT (ARRAY[1,2,3])[2], (ARRAY[1,2,3])[0], (ARRAY[1,2,3])[4], (ARRAY[1,2,3])[NULL];
SELECT (ARRAY[1,2,3])[2:3], (ARRAY[1,2,3])[2:], (ARRAY[1,2,3])[:2], (ARRAY[1,2,3])[:];
SELECT (ARRAY[1,2,3])[3:2], (ARRAY[1,2,3])[0:10], (ARRAY[1,2,3])[5:6];
SELECT (ARRAY[[1,2],[3,4]])[2][1], (ARRAY[[1,2],[3,4]])[2], (ARRAY[[1,2],[3,4]])[1:1][2];
SELECT (ARRAY[[1,2],[3,4]])[2:2], ('[0:2]={a,b,c}'::text[])[0], ('[0:2]={a,b,c}'::text[])[1:];
SELECT (ARRAY[1,2,3])['2'], (ARRAY[1,2,3])[1.6], (ARRAY[1,2,3])[2::bigint];
SELECT (1)[1];
SELECT (ARRAY[1,2])['a'];
SELECT (ARRAY[1,2])[true];
-- Casts.
SELECT ARRAY[1,2]::text[], '{1,2}'::text[]::int[], ARRAY['1.5','2']::numeric[]::int[];
SELECT ARRAY[1,2]::text, '{1,2}'::text::int[], CAST(ARRAY[1] AS varchar);
SELECT ARRAY[1.5]::float8[]::numeric[], ARRAY['2024-01-01'::date]::timestamp[];
SELECT ARRAY[1,2]::int;
SELECT 1::int[];
SELECT ARRAY['a']::int[];
-- Comparison operators.
SELECT ARRAY[1,2] = ARRAY[1,2], ARRAY[1,2] <> ARRAY[1,3], ARRAY[1,2] < ARRAY[1,3];
SELECT ARRAY[1,2] < ARRAY[1,2,3], ARRAY[2] > ARRAY[1,9], ARRAY[1,NULL] > ARRAY[1,2];
SELECT ARRAY[NULL::int] = ARRAY[NULL::int], '{1,2}'::int[] = '[0:1]={1,2}'::int[];
SELECT ARRAY[[1,2]] = ARRAY[1,2], ARRAY[1,2] = '{1,2}', ARRAY['b'] >= ARRAY['a','z'];
SELECT ARRAY[1.0] = ARRAY[1.00], ARRAY[1] IS DISTINCT FROM ARRAY[2], ARRAY[1] <= NULL;
SELECT ARRAY[1] = ARRAY[1::bigint];
SELECT ARRAY[1] = 1;
-- ANY / ALL.
SELECT 1 = ANY(ARRAY[1,2]), 3 = ANY(ARRAY[1,2]), 3 = ANY(ARRAY[1,NULL]), 1 = ANY('{}'::int[]);
SELECT 1 < ALL(ARRAY[2,3]), 1 < ALL(ARRAY[0,3]), 1 < ALL(ARRAY[2,NULL]), NULL = ANY('{}'::int[]);
SELECT 'a' = ANY('{a,b}'), 'b' <> ALL(ARRAY['a','c']), 2 = SOME(ARRAY[1,2]), 2.0 = ANY(ARRAY[1,2]);
SELECT NULL::int = ANY(ARRAY[1]), 1 = ANY(NULL::int[]), 'ab' LIKE ANY(ARRAY['a%','x']);
SELECT 1 = ANY(1);
SELECT 1 + ANY(ARRAY[1]);
-- Concatenation and containment.
SELECT ARRAY[1,2] || ARRAY[3,4], ARRAY[1,2] || 3, 0 || ARRAY[1,2], ARRAY[1] || '{2}';
SELECT ARRAY[[1,2]] || ARRAY[3,4], ARRAY[1,2] || ARRAY[[3,4]], ARRAY[1] || NULL::int[];
SELECT '{}'::int[] || ARRAY[1], ARRAY[1,2] || 2.5, 'x'::text || ARRAY['a'], ARRAY['a'] || 'b'::text;
SELECT 'x' || ARRAY['a'];
SELECT ARRAY[[1,2]] || ARRAY[[3]];
SELECT ARRAY[[[1]]] || ARRAY[1];
SELECT ARRAY[1] || 'a'::text;
SELECT ARRAY[1,2,3] @> ARRAY[2], ARRAY[1,2] @> ARRAY[3], ARRAY[1] <@ ARRAY[1,2];
SELECT ARRAY[1,2] && ARRAY[2,3], ARRAY[1] && ARRAY[2], ARRAY[1,NULL] @> ARRAY[NULL::int];
SELECT ARRAY[[1,2],[3,4]] @> ARRAY[4], '{}'::int[] <@ ARRAY[1], ARRAY[1,2] @> '{1}';
-- Functions.
SELECT array_length(ARRAY[1,2,3], 1), array_length(ARRAY[1], 2), array_length('{}'::int[], 1);
SELECT array_lower('[0:2]={1,2,3}'::int[], 1), array_upper('[0:2]={1,2,3}'::int[], 1);
SELECT array_ndims(ARRAY[[1],[2]]), array_ndims('{}'::int[]), array_dims(ARRAY[[1,2],[3,4]]);
SELECT array_dims('[0:1]={1,2}'::int[]), array_dims('{}'::int[]), cardinality(ARRAY[[1,2],[3,4]]);
SELECT cardinality('{}'::int[]), cardinality(NULL::int[]);
SELECT array_append(ARRAY[1,2], 3), array_append(NULL::int[], 1), array_append(ARRAY[1], NULL);
SELECT array_prepend(0, ARRAY[1]), array_prepend(0, '[5:6]={1,2}'::int[]), array_append(ARRAY[1], 2::bigint);
SELECT array_cat(ARRAY[1], ARRAY[2,3]), array_cat(NULL, ARRAY[1]), array_cat(ARRAY[[1]], ARRAY[2]);
SELECT array_position(ARRAY['a','b','a'], 'a'), array_position(ARRAY['a','b','a'], 'a', 2);
SELECT array_position(ARRAY[1,NULL], NULL), array_position(ARRAY[1], 5), array_positions(ARRAY[1,2,1], 1);
SELECT array_positions(ARRAY[1], 5), array_positions(NULL::int[], 1);
SELECT array_remove(ARRAY[1,2,1,NULL], 1), array_remove(ARRAY[1,NULL], NULL), array_remove(ARRAY[1], 1);
SELECT array_replace(ARRAY[1,2,1], 1, 9), array_replace(ARRAY[[1,NULL],[NULL,2]], NULL, 0);
SELECT array_to_string(ARRAY[1,NULL,3], ','), array_to_string(ARRAY[1,NULL,3], ',', '*');
SELECT array_to_string(ARRAY['a','b'], NULL), array_to_string(ARRAY[[1,2],[3,4]], '-');
SELECT string_to_array('a,b,,c', ','), string_to_array('a,b', ',', 'b'), string_to_array('abc', NULL);
SELECT string_to_array('abc', ''), string_to_array('', ','), string_to_array(NULL, ',');
SELECT array_append(ARRAY[[1]], 2);
SELECT array_remove(ARRAY[[1]], 1);
SELECT array_position(ARRAY[[1]], 1);
SELECT array_position(ARRAY[1], 1, NULL);
SELECT array_length('{1}', 1);
SELECT array_append(ARRAY[1], 'x'::text);
-- Arrays in tables.
CREATE TABLE arr (id int PRIMARY KEY, a int[], t text[], n numeric[], ts timestamptz[], v varchar(3)[]);
INSERT INTO arr VALUES
  (1, '{1,2,NULL}', '{"a b",c}', '{1.5,2}', '{"2024-01-02 03:04:05+00"}', '{abc}'),
  (2, ARRAY[3], ARRAY['x'], ARRAY[10], NULL, ARRAY['d']),
  (3, '{}', '{}', '{}', '{}', '{}'),
  (4, ARRAY[1,2], ARRAY['NULL', NULL, ''], '{-1}', ARRAY['2020-01-01'::timestamptz], NULL),
  (5, NULL, NULL, NULL, NULL, NULL),
  (6, '{{1,2},{3,4}}', '{{a},{b}}', '{0.1}', '{}', '{}');
INSERT INTO arr (id, v) VALUES (7, '{abcd}');
INSERT INTO arr (id, a) VALUES (8, 'bogus');
SELECT * FROM arr ORDER BY id;
SELECT id, a FROM arr ORDER BY a, id;
SELECT id, a FROM arr ORDER BY a DESC NULLS LAST, id;
SELECT id, n FROM arr ORDER BY n, id;
SELECT id FROM arr WHERE a = '{1,2}';
SELECT id FROM arr WHERE a > ARRAY[1,2] ORDER BY id;
SELECT id FROM arr WHERE 2 = ANY(a) ORDER BY id;
SELECT id FROM arr WHERE a @> ARRAY[1] ORDER BY id;
SELECT id, a[1], a[2:3], t[1], array_length(a, 1), cardinality(t) FROM arr ORDER BY id;
SELECT id, a || 9 AS appended, array_to_string(t, '|') FROM arr WHERE id < 6 ORDER BY id;
SELECT id, a || 9 FROM arr ORDER BY id;
SET TimeZone = 'America/New_York';
SELECT id, ts FROM arr WHERE ts IS NOT NULL ORDER BY id;
RESET TimeZone;
UPDATE arr SET a = a || 5 WHERE id = 2;
UPDATE arr SET t = ARRAY['y', 'z'] WHERE id = 2;
SELECT a, t FROM arr WHERE id = 2;
SELECT count(*) FROM arr WHERE a IS NULL;
SELECT DISTINCT a FROM arr WHERE id IN (1, 2, 4) ORDER BY a;
SELECT a, count(*) FROM arr GROUP BY a ORDER BY a;
SELECT max(a), min(a) FROM arr;
-- array_agg.
SELECT array_agg(id ORDER BY id) FROM arr;
SELECT array_agg(id ORDER BY id DESC) FILTER (WHERE id > 3) FROM arr;
SELECT array_agg(DISTINCT id % 2) FROM arr;
SELECT array_agg(a ORDER BY id) FROM arr WHERE id IN (2, 4);
SELECT array_agg(t[1] ORDER BY t[1] NULLS FIRST) FROM arr;
SELECT id % 2 AS k, array_agg(id ORDER BY id) FROM arr GROUP BY id % 2 ORDER BY k;
SELECT array_agg(id) FROM arr WHERE id > 100;
SELECT array_agg(a) FROM arr WHERE id IN (1, 3);
SELECT ARRAY(SELECT id FROM arr WHERE id < 4 ORDER BY id DESC), ARRAY(SELECT id FROM arr WHERE id > 100);
SELECT ARRAY(SELECT t FROM arr WHERE id = 2);
-- unnest and generate_subscripts.
SELECT * FROM unnest(ARRAY[1,2,NULL]);
SELECT * FROM unnest(ARRAY['a','b']) WITH ORDINALITY;
SELECT * FROM unnest(ARRAY[1,2], ARRAY['x','y','z']) AS u(n, s);
SELECT u.x FROM unnest('{{1,2},{3,4}}'::int[]) AS u(x) WHERE x > 1;
SELECT id, e FROM arr, unnest(arr.a) AS e WHERE id < 3 ORDER BY id, e;
SELECT id, e, o FROM arr CROSS JOIN LATERAL unnest(t) WITH ORDINALITY AS x(e, o) ORDER BY id, o;
SELECT unnest(ARRAY[1,2,3]);
SELECT unnest(ARRAY[1,2]) AS x, unnest(ARRAY['a','b','c']) AS y;
SELECT id, unnest(t) FROM arr WHERE id IN (1, 2) ORDER BY id;
SELECT * FROM generate_subscripts('[0:2]={a,b,c}'::text[], 1) AS s;
SELECT generate_subscripts.* FROM generate_subscripts(ARRAY[1,2,3], 1, true);
SELECT * FROM unnest(1);
SELECT * FROM unnest('{1}');
-- Element assignment.
UPDATE arr SET a[2] = 20 WHERE id = 1;
UPDATE arr SET a[5] = 5, t[0] = 'zero' WHERE id = 2;
UPDATE arr SET a[1] = 1 WHERE id IN (3, 5);
UPDATE arr SET a[2][1] = 30 WHERE id = 6;
SELECT id, a, t FROM arr WHERE id IN (1, 2, 3, 5, 6) ORDER BY id;
UPDATE arr SET a[3][1] = 0 WHERE id = 6;
UPDATE arr SET a[1] = 0 WHERE id = 6;
UPDATE arr SET a[NULL] = 0 WHERE id = 1;
UPDATE arr SET a[1] = 'x' WHERE id = 1;
-- Parameters.
PREPARE in_list(int[]) AS SELECT id FROM arr WHERE id = ANY($1) ORDER BY id;
EXECUTE in_list('{1,3,99}');
EXECUTE in_list(ARRAY[2]);
PREPARE by_array AS SELECT id FROM arr WHERE id <> ALL($1) AND a IS NOT NULL ORDER BY id;
EXECUTE by_array('{1,2}');
PREPARE elem(text[], int) AS SELECT $1[$2] AS e, array_length($1, 1) AS n;
EXECUTE elem('{a,b,c}', 2);
-- COPY.
COPY (SELECT id, a, t, n FROM arr ORDER BY id) TO stdout;
COPY (SELECT id, a, t FROM arr ORDER BY id) TO stdout WITH (FORMAT csv);
CREATE TABLE arr_copy (a int[], t text[], d date[]);
COPY arr_copy FROM stdin;
{1,2,NULL}	{"a b","c\\d",NULL}	{2024-01-01}
\N	{}	{}
\.
COPY arr_copy FROM stdin WITH (FORMAT csv);
"{4,5}","{""x,y"",z}","{2020-02-02}"
\.
COPY arr_copy FROM stdin;
{1,x}	{}	{}
\.
SELECT * FROM arr_copy ORDER BY a;
DROP TABLE arr_copy;
DROP TABLE arr;
-- Functions returning arrays, JSON of arrays.
SELECT regexp_split_to_array('a1b22c', '\d+'), regexp_split_to_array('abc', ''), regexp_split_to_array('', ','), regexp_split_to_array('x', 'x');
SELECT regexp_match('foobarbequebaz', '(bar)(beque)'), regexp_match('abc', '(x)?b'), regexp_match('ABC', 'b', 'i'), regexp_match('abc', 'z');
SELECT regexp_match('abc', 'b', 'g');
SELECT current_schemas(false), current_schemas(true);
SELECT array_to_json(ARRAY[[1,5],[99,100]], true), array_to_json('{}'::int[]), to_json(ARRAY['a"b', NULL]), to_jsonb('{1.50,NaN}'::numeric[]);
SELECT to_json('{2024-01-01}'::date[]), array_to_json(ARRAY[true]), json_build_object('k', ARRAY[1,2]);
SELECT concat(ARRAY[1,2], 'x'), format('%s', ARRAY['a b']), ARRAY[1]::text || 'x';
-- Arrays in other expressions.
SELECT coalesce(NULL, ARRAY[1]), CASE WHEN true THEN ARRAY[1] ELSE ARRAY[2,3] END, greatest(ARRAY[1], ARRAY[2]);
SELECT nullif(ARRAY[1], ARRAY[1]), ARRAY[1] IS NOT DISTINCT FROM ARRAY[1], ARRAY[1,2] IN (ARRAY[1,2]);
SELECT (SELECT ARRAY[1,2])[1], (ARRAY(SELECT 1))[1], ARRAY[1,2] = ANY(ARRAY[ARRAY[1,2]]);
SELECT ARRAY[1,2] AS x UNION SELECT ARRAY[3] ORDER BY 1;
SELECT * FROM (VALUES (ARRAY[1]), (NULL), (ARRAY[0,5])) v(a) ORDER BY a;
SELECT * FROM unnest(ARRAY[1,2]) u JOIN unnest(ARRAY[2,3]) v ON u = v;
SELECT * FROM unnest(ARRAY[1.5, 2.25]::numeric[]) AS n ORDER BY n DESC;
SELECT sum(x), array_agg(x ORDER BY x DESC) FROM unnest(ARRAY[3,1,2]) x;
-- Defaults, ALTER and numeric elements.
CREATE TABLE arr2 (id int, a text[] DEFAULT '{}', b varchar(3)[] NOT NULL DEFAULT ARRAY['x']);
INSERT INTO arr2 (id) VALUES (1);
ALTER TABLE arr2 ADD COLUMN c int[];
UPDATE arr2 SET c = '{1}';
ALTER TABLE arr2 ALTER COLUMN c TYPE bigint[];
SELECT *, pg_typeof(c) FROM arr2;
ALTER TABLE arr2 ALTER COLUMN c TYPE text;
ALTER TABLE arr2 ALTER COLUMN c TYPE int[] USING c::int[];
SELECT *, pg_typeof(c) FROM arr2;
CREATE TABLE arr_num (a numeric[]);
INSERT INTO arr_num VALUES ('{1.0}'), ('{1.00}'), ('{2}'), ('{-1}');
SELECT a, count(*) FROM arr_num GROUP BY a ORDER BY a;
SELECT * FROM arr_num WHERE a = '{1}' ORDER BY a;
SELECT array_agg(a ORDER BY a), max(a), min(a) FROM arr_num;
DROP TABLE arr2, arr_num;
-- = ANY / <> ALL over tables (compiled to IN / NOT IN over the elements).
CREATE TABLE arr_big (id int PRIMARY KEY, v text);
INSERT INTO arr_big SELECT g, 'x' || g FROM generate_series(1, 50) g;
SELECT id FROM arr_big WHERE id = ANY('{5,7,40,NULL}') ORDER BY id;
SELECT count(*) FROM arr_big WHERE id <> ALL('{5,7}');
SELECT count(*) FROM arr_big WHERE id <> ALL('{5,NULL}');
SELECT id, (id = ANY('{1,NULL}')) AS m FROM arr_big WHERE id < 4 ORDER BY id;
SELECT v FROM arr_big WHERE v = ANY(ARRAY['x5', 'x9']) OR id::bigint = ANY('{10}'::bigint[]) ORDER BY v;
SELECT count(*) FROM arr_big WHERE id = ANY('{}');
DROP TABLE arr_big;
-- Slice assignment.
CREATE TABLE arr_slice (id int, a int[]);
INSERT INTO arr_slice VALUES (1, '{1,2,3}'), (2, NULL), (3, '{}'), (4, '[5:6]={5,6}');
UPDATE arr_slice SET a[2:3] = '{8,9,10}' RETURNING id, a;
UPDATE arr_slice SET a[5:6] = '{8,9}' WHERE id = 1 RETURNING a;
UPDATE arr_slice SET a[:2] = '{0,0}' WHERE id = 1 RETURNING a;
UPDATE arr_slice SET a[0:0] = NULL WHERE id = 1 RETURNING a;
UPDATE arr_slice SET a[2:] = '{7}' WHERE id = 1 RETURNING a;
UPDATE arr_slice SET a = NULL WHERE id = 2;
UPDATE arr_slice SET a[:2] = '{1,2}' WHERE id = 2;
UPDATE arr_slice SET a[1:1] = '{1,2}' WHERE id = 2 RETURNING a;
UPDATE arr_slice SET a = '{{1,2},{3,4}}' WHERE id = 3;
UPDATE arr_slice SET a[1:1] = '{7,8}' WHERE id = 3 RETURNING a;
UPDATE arr_slice SET a[1:2][2] = '{5,6}' WHERE id = 3 RETURNING a;
UPDATE arr_slice SET a[1:3][1] = '{5,6,7}' WHERE id = 3;
UPDATE arr_slice SET a[1:2] = '{x}' WHERE id = 3;
UPDATE arr_slice SET a[2:1] = '{1}' WHERE id = 1;
DROP TABLE arr_slice;
-- Malformed literals quote the text from the first brace, dimension errors
-- the whole literal.
SELECT '  {1,'::int[];
SELECT '[1:2]={1,2'::int[];
SELECT ' [1:2'::int[];
SELECT ' {{1},{{2}}}x'::int[];
-- unnest inside select-list expressions.
SELECT unnest(ARRAY[1,2]) + 1;
SELECT unnest(ARRAY[1,2]) * 10 AS x, upper(unnest(ARRAY['a','b']));
SELECT (unnest(ARRAY[ARRAY[1,2]]))::text;
SELECT unnest(ARRAY['a','b']) || '!' AS s ORDER BY s DESC;
SELECT count(*) FROM (SELECT unnest(ARRAY[1,2,3]) AS v) s;
-- Size and bound limits.
SELECT (ARRAY[1])[2147483647], (ARRAY[1])[-2147483648:2147483647];
SELECT '[2147483647:2147483647]={1}'::int[];
SELECT '[-2147483648:-2147483648]={1}'::int[];
CREATE TABLE arr_edge (a int[]);
INSERT INTO arr_edge VALUES ('{1}');
UPDATE arr_edge SET a[200000000] = 1;
UPDATE arr_edge SET a[-200000000] = 1;
UPDATE arr_edge SET a[1:200000000] = '{1}';
UPDATE arr_edge SET a[2147483647] = 1;
SELECT array_prepend(0, '[-2147483648:-2147483648]={1}'::int[]);
SELECT * FROM arr_edge;
DROP TABLE arr_edge;
-- = ANY / <> ALL over a NULL array is NULL, over an empty one false / true
CREATE TABLE any_null (id int, tags text[]);
INSERT INTO any_null VALUES (1, '{a,b}'), (2, NULL), (3, '{}'), (4, '{x,NULL}');
SELECT id, 'a' = ANY (tags) AS has_a, 'a' <> ALL (tags) AS lacks_a, NULL = ANY (tags) AS null_any FROM any_null ORDER BY id;
SELECT id FROM any_null WHERE NOT ('a' = ANY (tags)) ORDER BY id;
DROP TABLE any_null;
