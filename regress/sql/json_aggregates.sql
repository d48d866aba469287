-- json_agg, jsonb_agg, json_object_agg and jsonb_object_agg (ORDER BY,
-- DISTINCT, FILTER), and aggregates in a SELECT without FROM.
SELECT json_agg(x), jsonb_agg(x), json_object_agg(x, x*2), jsonb_object_agg('k'||x, NULL) FROM generate_series(1,3) x;
SELECT json_agg(t ORDER BY t DESC), json_agg(d), jsonb_agg(d) FROM (VALUES ('a"b', date '2020-01-01'), (NULL, NULL)) v(t,d);
SELECT json_agg(x) FROM generate_series(1,0) x;
SELECT json_object_agg(NULL::text, 1);
SELECT jsonb_object_agg(NULL::text, 1);
SELECT json_object_agg(k, v), jsonb_object_agg(k, v) FROM (VALUES ('b', 1), ('a', 2), ('b', 3)) t(k, v);
SELECT json_agg(a), jsonb_agg(j), json_agg(j) FROM (VALUES (ARRAY[1,2], '{"z": 1, "a": [1, 2]}'::json)) v(a, j);
SELECT json_agg(DISTINCT x) FROM (VALUES (2),(1),(2)) v(x);
SELECT g, json_agg(x ORDER BY x DESC) FILTER (WHERE x <> 2) FROM (VALUES (1, 1), (1, 2), (1, 3), (2, 4)) v(g, x) GROUP BY g ORDER BY g;
SELECT json_agg(ts), jsonb_agg(b), json_agg(n) FROM (VALUES (timestamptz '2020-01-01 10:00+00', true, 1.50::numeric)) v(ts, b, n);
SELECT json_object_agg(d, 1) FROM (VALUES (date '2020-01-02')) v(d);
SELECT pg_typeof(json_agg(1)), pg_typeof(jsonb_agg(1));
SELECT json_agg('x'), json_agg(x, 1) FROM (VALUES (1)) v(x);
SELECT count(*), count(1), sum(2), max('a'::text), avg(4), string_agg('x', ','), array_agg(5), bool_and(true);
SELECT count(*) WHERE false;
SELECT count(*) + 1 AS n, 'x' AS t;
SELECT sum(x) FROM (SELECT 1) s(x);

-- jsonb || jsonb: objects merge, everything else concatenates as arrays.
SELECT '{"a":1,"b":2}'::jsonb || '{"b":3,"c":4}', '[1,2]'::jsonb || '[3]', '[1]'::jsonb || '2', '1'::jsonb || '2', '{"a":1}'::jsonb || '[1]', '[1]'::jsonb || '{"a":1}', '[]'::jsonb || '[]', '{}'::jsonb || '{}', '"x"'::jsonb || '[]';
CREATE TABLE jc (j jsonb); INSERT INTO jc VALUES ('{"a": 1}'), ('[1]'), (NULL);
SELECT j || '{"z": true}' FROM jc ORDER BY 1;
SELECT j || j FROM jc ORDER BY 1;
SELECT '{"a":1}'::json || '{"b":2}'::json;
SELECT 'x' || '{"a":1}'::jsonb, '{"a":1}'::jsonb || 'x'::text;
DROP TABLE jc;
