--
-- Functions in FROM that read the FROM items before them (implicitly
-- LATERAL in PostgreSQL), and the names of their columns.
--
CREATE TABLE la (id int, n int, step int, arr int[], j jsonb);
INSERT INTO la VALUES
  (1, 2, 1, '{1,2}', '[{"k": 1}, {"k": 2}]'),
  (2, 3, 2, '{3}', '[]'),
  (3, 0, 1, NULL, NULL),
  (4, NULL, 1, '{}', '"scalar"');
SELECT la.id, s FROM la, generate_series(1, la.n) s ORDER BY 1, 2;
SELECT la.id, s FROM la CROSS JOIN LATERAL generate_series(1, la.n) AS s
  ORDER BY 1, 2;
SELECT id, s, o FROM la, generate_series(la.n, 1, -la.step) WITH ORDINALITY
  AS g(s, o) ORDER BY 1, 3;
SELECT id, g FROM la LEFT JOIN LATERAL generate_series(1, la.n) g ON true
  ORDER BY 1, 2;
SELECT id, count(*) FROM la, generate_series(1, la.id * 1000) GROUP BY id
  ORDER BY id;
SELECT sum(g) FROM la, generate_series(la.id::bigint, 3000000000, 1000000000) g;
SELECT count(*) FROM la, generate_series(1, 5, la.n - la.n);
SELECT * FROM generate_series(2147483640, 2147483647, 3) WITH ORDINALITY;
SELECT * FROM generate_series(9223372036854775800, 9223372036854775807, 5);
SELECT id, u FROM la, unnest(arr) u ORDER BY 1, 2;
SELECT id, u FROM la LEFT JOIN LATERAL unnest(arr) u ON true ORDER BY 1, 2;
SELECT id, e->>'k' FROM la, jsonb_array_elements(j) e
  WHERE jsonb_typeof(j) = 'array' ORDER BY 1, 2;
-- The elements functions name their column "value"; the alias alone
-- still reads it.
SELECT id, e.value, e FROM la, jsonb_array_elements(j) e
  WHERE jsonb_typeof(j) = 'array' ORDER BY 1, 2;
SELECT * FROM jsonb_array_elements('[1, {"a": 2}]') e;
SELECT * FROM jsonb_array_elements_text('["x", "y"]') AS t;
SELECT t FROM json_array_elements_text('["x", "y"]') AS t;
SELECT * FROM json_array_elements('[1]') e(v);
SELECT * FROM json_object_keys('{"a": 1}') k;
SELECT x, x.key FROM jsonb_each('{"a": 1}') x;
SELECT id, k, v FROM la,
  jsonb_each(jsonb_build_object('id', la.id, 'n', la.n)) AS x(k, v)
  WHERE id < 3 ORDER BY 1, 2;
DROP TABLE la;
