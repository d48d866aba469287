-- Aggregates with DISTINCT and ORDER BY: the keys must be arguments, the
-- distinct values come in the key's order, NULLs where it puts them.
CREATE TABLE ado_rows (g int, x text, n int);
INSERT INTO ado_rows VALUES (1, 'b', 2), (1, 'a', 1), (1, 'b', 2), (2, NULL, 3),
  (2, 'c', NULL), (2, 'c', 3);
SELECT g, string_agg(DISTINCT x, ',' ORDER BY x) FROM ado_rows GROUP BY g ORDER BY g;
SELECT g, string_agg(DISTINCT x, ',' ORDER BY x DESC) FROM ado_rows GROUP BY g
  ORDER BY g;
SELECT string_agg(DISTINCT x, ',' ORDER BY x NULLS FIRST) FROM ado_rows;
SELECT g, array_agg(DISTINCT n ORDER BY n DESC) FROM ado_rows GROUP BY g ORDER BY g;
SELECT g, array_agg(DISTINCT x ORDER BY x NULLS FIRST) FROM ado_rows GROUP BY g
  ORDER BY g;
SELECT array_agg(DISTINCT n ORDER BY n NULLS FIRST), array_agg(DISTINCT n)
  FROM ado_rows;
SELECT g, json_agg(DISTINCT n ORDER BY n) FROM ado_rows GROUP BY g ORDER BY g;
SELECT json_agg(DISTINCT x ORDER BY x DESC) FROM ado_rows;
SELECT g, jsonb_agg(DISTINCT x ORDER BY x) FROM ado_rows GROUP BY g ORDER BY g;
-- Keys that are not arguments.
SELECT string_agg(DISTINCT x, ',' ORDER BY n) FROM ado_rows;
SELECT array_agg(DISTINCT x ORDER BY x || 'z') FROM ado_rows;
SELECT array_agg(DISTINCT n ORDER BY n, x) FROM ado_rows;
