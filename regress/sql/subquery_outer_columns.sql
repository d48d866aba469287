-- A subquery's ORDER BY and HAVING may read the enclosing query's columns
-- (constants for each of its rows).
CREATE TABLE soc_points (k int, x int);
CREATE TABLE soc_samples (k int, y int);
INSERT INTO soc_points VALUES (1, 10), (2, 20), (3, 30), (4, NULL);
INSERT INTO soc_samples VALUES (1, 8), (1, 13), (2, 25), (2, 18), (3, 1),
  (4, 7), (4, NULL);

-- The nearest sample of each point.
SELECT k, (SELECT y FROM soc_samples s WHERE s.k = p.k
           ORDER BY abs(s.y - p.x) LIMIT 1) AS nearest
  FROM soc_points p ORDER BY k;
SELECT k, (SELECT y FROM soc_samples s WHERE s.k = p.k
           ORDER BY abs(s.y - p.x) DESC NULLS LAST, y LIMIT 1 OFFSET 0)
  FROM soc_points p ORDER BY k;
-- Top two per row through LATERAL, the distance an output column too.
SELECT p.k, l.y, l.d FROM soc_points p,
  LATERAL (SELECT y, y - p.x AS d FROM soc_samples
           ORDER BY abs(y - p.x), y LIMIT 2) l
  ORDER BY 1, 2;
-- In IN, EXISTS and ARRAY subqueries.
SELECT k FROM soc_points p
  WHERE x + 3 IN (SELECT y FROM soc_samples ORDER BY abs(y - p.x) LIMIT 1)
  ORDER BY k;
SELECT k, EXISTS (SELECT 1 FROM soc_samples s WHERE s.k = p.k
                  ORDER BY y - p.x LIMIT 1)
  FROM soc_points p ORDER BY k;
SELECT k, ARRAY(SELECT y FROM soc_samples s WHERE s.k = p.k
                ORDER BY y * p.x DESC, y)
  FROM soc_points p ORDER BY k;
-- Grouped and DISTINCT subqueries.
SELECT k, (SELECT sum(y) FROM soc_samples GROUP BY soc_samples.k
           ORDER BY sum(y) * p.x DESC NULLS LAST, sum(y) LIMIT 1)
  FROM soc_points p ORDER BY k;
SELECT k, (SELECT DISTINCT y * p.x FROM soc_samples s WHERE s.k = p.k
           ORDER BY y * p.x LIMIT 1)
  FROM soc_points p ORDER BY k;
SELECT k, (SELECT sum(y) FROM soc_samples s WHERE s.k <> p.k
           HAVING sum(y) > p.x)
  FROM soc_points p ORDER BY k;
SELECT k, (SELECT max(y) + p.x FROM soc_samples s WHERE s.k = p.k)
  FROM soc_points p ORDER BY k;
-- Still one row at most for a scalar subquery.
SELECT k, (SELECT y FROM soc_samples s WHERE s.k = p.k ORDER BY y - p.x)
  FROM soc_points p ORDER BY k;

-- LIMIT and OFFSET over the enclosing query's columns.
SELECT k, ARRAY(SELECT y FROM soc_samples ORDER BY y LIMIT p.k)
  FROM soc_points p ORDER BY k;
SELECT k, ARRAY(SELECT y FROM soc_samples ORDER BY y, k OFFSET p.k)
  FROM soc_points p ORDER BY k;
SELECT k, ARRAY(SELECT y FROM soc_samples WHERE y IS NOT NULL
                ORDER BY abs(y - p.x), y LIMIT p.k OFFSET 1)
  FROM soc_points p ORDER BY k;
SELECT k, (SELECT sum(y) FROM (SELECT y FROM soc_samples WHERE y IS NOT NULL
                                ORDER BY y DESC LIMIT p.k) s)
  FROM soc_points p ORDER BY k;
SELECT p.k, l.y FROM soc_points p,
  LATERAL (SELECT y FROM soc_samples s WHERE s.y > p.x ORDER BY y LIMIT p.k) l
  ORDER BY 1, 2;
SELECT k, ARRAY(SELECT y FROM soc_samples ORDER BY y LIMIT -p.k)
  FROM soc_points p WHERE k = 1;
