-- generate_series over integers in a select list (lockstep with other
-- set-returning calls) and in a SELECT without FROM.
SELECT generate_series(1, 3);
SELECT generate_series(1, 3) + 1 AS n, 'x' AS t;
SELECT generate_series(5, 1, -2), generate_series(1, 2);
SELECT generate_series(1, 10, 0);
SELECT generate_series(1, NULL);
SELECT generate_series(1::bigint, 3), pg_typeof(generate_series(1, 1));
SELECT count(*) FROM (SELECT generate_series(1, 100)) s;
SELECT x, generate_series(1, x) FROM (VALUES (1), (2)) v(x) ORDER BY 1, 2;
SELECT generate_series(1, 2), unnest(ARRAY['a', 'b', 'c']);
SELECT generate_series(1);
SELECT * FROM generate_series(2, 4) g;
