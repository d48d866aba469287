-- GROUP BY GROUPING SETS, ROLLUP and CUBE, and GROUPING(). Every query
-- orders its rows: without ORDER BY their order is not specified.
CREATE TABLE gs_sales (region text, product text, yr int, qty int,
                       price numeric(10,2), kind varchar(8), ok boolean);
INSERT INTO gs_sales VALUES
  ('east', 'apple', 2022, 10, 1.50, 'fruit', true),
  ('east', 'apple', 2023, 5, 1.75, 'fruit', true),
  ('east', 'pear', 2022, 3, 2.00, 'fruit', false),
  ('west', 'apple', 2022, 7, 1.25, 'fruit', true),
  ('west', 'kale', 2023, 2, 3.10, 'leaf', NULL),
  ('west', NULL, 2023, 4, 0.99, NULL, false),
  (NULL, 'pear', 2022, 1, 2.20, 'fruit', true),
  (NULL, NULL, NULL, NULL, NULL, NULL, NULL);
CREATE TABLE gs_regions (region text, manager text);
INSERT INTO gs_regions VALUES ('east', 'Ann'), ('west', 'Bob'),
  ('north', 'Cid');

-- ROLLUP: subtotals per region and a grand total.
SELECT region, product, sum(qty), count(*)
FROM gs_sales GROUP BY ROLLUP (region, product)
ORDER BY region, product, grouping(region, product);
SELECT region, sum(qty) AS total, avg(price), min(product), max(yr)
FROM gs_sales GROUP BY ROLLUP (region)
ORDER BY grouping(region), region NULLS FIRST;
-- A parenthesised list is one element of ROLLUP and CUBE.
SELECT region, product, yr, count(*)
FROM gs_sales GROUP BY ROLLUP (region, (product, yr))
ORDER BY 1, 2, 3, grouping(region, product, yr);
-- CUBE: every subset.
SELECT region, yr, sum(qty), count(qty), grouping(region), grouping(yr),
       grouping(region, yr), grouping(yr, region)
FROM gs_sales GROUP BY CUBE (region, yr)
ORDER BY grouping(region, yr), region, yr;
SELECT product, kind, count(*)
FROM gs_sales GROUP BY CUBE ((product, kind))
ORDER BY grouping(product), product, kind;
-- GROUPING SETS, with nested lists, empty sets and nested ROLLUP / CUBE.
SELECT region, product, yr, sum(qty)
FROM gs_sales GROUP BY GROUPING SETS ((region, product), (yr), ())
ORDER BY grouping(region, product, yr), region, product, yr;
SELECT region, product, yr, count(*)
FROM gs_sales
GROUP BY GROUPING SETS (region, ROLLUP (product, yr), CUBE (region), ())
ORDER BY grouping(region, product, yr), region, product, yr, count(*);
SELECT region, product, count(*)
FROM gs_sales GROUP BY GROUPING SETS ((), (), region, GROUPING SETS (product, ()))
ORDER BY grouping(region, product), region, product, count(*);
SELECT count(*), sum(qty) FROM gs_sales GROUP BY GROUPING SETS (());
SELECT count(*) FROM gs_sales GROUP BY ();
-- The empty set makes one row even when no row qualifies.
SELECT region, count(*), sum(qty)
FROM gs_sales WHERE qty > 100 GROUP BY ROLLUP (region)
ORDER BY region;
SELECT count(*) FROM gs_sales WHERE false GROUP BY GROUPING SETS ((), ());
-- Mixed with plain items: a cartesian product of the sets.
SELECT region, product, yr, sum(qty)
FROM gs_sales GROUP BY region, ROLLUP (product, yr)
ORDER BY region, grouping(product, yr), product, yr;
SELECT region, product, yr, sum(qty)
FROM gs_sales GROUP BY ROLLUP (region), CUBE (yr), product
ORDER BY grouping(region, yr), region, product, yr;
SELECT region, product, count(*)
FROM gs_sales GROUP BY GROUPING SETS (region, product), GROUPING SETS (region, ())
ORDER BY grouping(region, product), region, product, count(*);
-- GROUP BY DISTINCT removes sets that repeat; ALL (the default) keeps them.
SELECT region, yr, count(*)
FROM gs_sales GROUP BY ALL ROLLUP (region, yr), ROLLUP (region)
ORDER BY grouping(region, yr), region, yr, count(*);
SELECT region, yr, count(*)
FROM gs_sales GROUP BY DISTINCT ROLLUP (region, yr), ROLLUP (region)
ORDER BY grouping(region, yr), region, yr, count(*);
SELECT region, count(*)
FROM gs_sales GROUP BY DISTINCT GROUPING SETS ((region), (region), (), ())
ORDER BY region, count(*);
-- Positions and output names as grouping items; GROUP BY (a, b).
SELECT region AS r, product, sum(qty)
FROM gs_sales GROUP BY ROLLUP (r, 2) ORDER BY 1, 2, 3;
SELECT region, product, count(*)
FROM gs_sales GROUP BY (region, product) ORDER BY 1, 2;
-- Expressions as grouping items.
SELECT upper(region) AS up, yr % 2 AS odd, sum(qty), grouping(upper(region))
FROM gs_sales GROUP BY ROLLUP (upper(region), yr % 2)
ORDER BY 4, 1, 2, grouping(upper(region), yr % 2);
SELECT qty > 4 AS big, count(*), sum(price)
FROM gs_sales GROUP BY CUBE (qty > 4) ORDER BY grouping(qty > 4), big;
SELECT region || '/' || coalesce(product, '-') AS label, count(*)
FROM gs_sales GROUP BY ROLLUP (region || '/' || coalesce(product, '-'))
ORDER BY label, count(*);
-- An expression over a grouping expression reads NULL where it is not
-- grouped.
SELECT yr + 1 AS next, coalesce(region, 'all') AS r, count(*)
FROM gs_sales GROUP BY ROLLUP (region, yr) ORDER BY r, next, count(*);
SELECT region, length(region), region IS NULL AS rolled, count(*)
FROM gs_sales GROUP BY ROLLUP (region) ORDER BY 1, 4;
-- Aggregates: count(*), sum, avg, string_agg (with ORDER BY), FILTER,
-- DISTINCT, bool_and, array_agg.
SELECT region, count(*), count(product), count(DISTINCT product), sum(qty),
       avg(qty), sum(price)
FROM gs_sales GROUP BY ROLLUP (region) ORDER BY grouping(region), region;
SELECT region, string_agg(product, ',' ORDER BY product),
       string_agg(kind, '|' ORDER BY kind DESC), array_agg(qty ORDER BY qty)
FROM gs_sales GROUP BY CUBE (region) ORDER BY grouping(region), region;
SELECT region, count(*) FILTER (WHERE qty > 3) AS big,
       sum(qty) FILTER (WHERE product = 'apple') AS apples,
       bool_and(ok), bool_or(ok)
FROM gs_sales GROUP BY ROLLUP (region) ORDER BY grouping(region), region;
SELECT kind, avg(price)::numeric(10,4), max(price) - min(price) AS spread
FROM gs_sales GROUP BY GROUPING SETS (kind, ()) ORDER BY grouping(kind), kind;
-- GROUPING() in the select list, HAVING and ORDER BY, and in expressions.
SELECT region, product, grouping(region, product) AS g,
       CASE grouping(product) WHEN 1 THEN 'subtotal' ELSE 'row' END,
       sum(qty)
FROM gs_sales GROUP BY ROLLUP (region, product)
HAVING grouping(region, product) > 0 OR sum(qty) > 4
ORDER BY grouping(region, product) DESC, region, product;
SELECT region, yr, sum(qty) FROM gs_sales
GROUP BY CUBE (region, yr) HAVING grouping(region) = 1 AND sum(qty) > 5
ORDER BY 1, 2;
SELECT region, count(*) FROM gs_sales GROUP BY ROLLUP (region)
HAVING count(*) > 2 ORDER BY region;
SELECT product, grouping(product) + 10 * grouping(product) AS gg
FROM gs_sales GROUP BY ROLLUP (product) ORDER BY gg, product;
-- GROUPING with plain GROUP BY is always 0.
SELECT region, grouping(region) FROM gs_sales GROUP BY region ORDER BY 1;
-- ORDER BY with NULLs: data NULLs and rolled-up NULLs.
SELECT region, product, count(*)
FROM gs_sales GROUP BY ROLLUP (region, product)
ORDER BY region NULLS FIRST, product NULLS FIRST, grouping(region, product);
SELECT region, product, count(*)
FROM gs_sales GROUP BY ROLLUP (region, product)
ORDER BY region DESC, product DESC NULLS LAST, 3;
SELECT region, sum(qty) FROM gs_sales GROUP BY ROLLUP (region)
ORDER BY sum(qty) DESC NULLS LAST, region LIMIT 2;
SELECT region, sum(qty) FROM gs_sales GROUP BY ROLLUP (region)
ORDER BY sum(qty), region OFFSET 1 LIMIT 2;
-- Joins.
SELECT r.manager, s.product, sum(s.qty), count(*)
FROM gs_sales s JOIN gs_regions r ON r.region = s.region
GROUP BY ROLLUP (r.manager, s.product)
ORDER BY grouping(r.manager, s.product), 1, 2;
SELECT r.region, r.manager, count(s.qty)
FROM gs_regions r LEFT JOIN gs_sales s USING (region)
GROUP BY GROUPING SETS ((r.region, r.manager), ())
ORDER BY 1, 2;
-- DISTINCT over the combined rows.
SELECT DISTINCT count(*) > 1 AS many
FROM gs_sales GROUP BY CUBE (region, product) ORDER BY 1;
SELECT DISTINCT region FROM gs_sales GROUP BY ROLLUP (region, yr)
ORDER BY 1;
SELECT DISTINCT ON (grouping(region, yr)) grouping(region, yr), region, yr,
       sum(qty)
FROM gs_sales GROUP BY CUBE (region, yr)
ORDER BY grouping(region, yr), sum(qty) DESC, region, yr;
-- Window functions over the combined rows.
SELECT region, yr, sum(qty),
       rank() OVER (PARTITION BY grouping(region, yr) ORDER BY sum(qty) DESC),
       sum(sum(qty)) OVER (PARTITION BY grouping(region, yr)) AS level_total,
       count(*) OVER () AS rows_total
FROM gs_sales GROUP BY CUBE (region, yr)
ORDER BY grouping(region, yr), region, yr;
SELECT region, sum(qty), row_number() OVER w, lag(region) OVER w
FROM gs_sales GROUP BY ROLLUP (region)
WINDOW w AS (ORDER BY grouping(region), region NULLS FIRST)
ORDER BY grouping(region), region NULLS FIRST;
SELECT region, lag(sum(qty)) OVER (ORDER BY grouping(region), region),
       first_value(region) OVER (ORDER BY sum(qty) DESC)
FROM gs_sales GROUP BY ROLLUP (region) ORDER BY grouping(region), region;
-- A constant GROUP BY names reads NULL where not grouped; equal constants
-- elsewhere keep their value.
SELECT 1 AS one, 1 AS two, 'k' AS k, count(*) + 1
FROM gs_sales GROUP BY ROLLUP (1, k) ORDER BY 1, 3;
SELECT 1 AS one, grouping(1), count(*) FROM gs_sales GROUP BY CUBE (1)
ORDER BY 1;
-- The same text with other constants: which expressions are grouped
-- depends on their values.
SELECT yr, yr + 7 AS x, count(*) FROM gs_sales GROUP BY ROLLUP (yr, yr + 5)
ORDER BY 1, 2, 3;
SELECT yr, yr + 5 AS x, count(*) FROM gs_sales GROUP BY ROLLUP (yr, yr + 5)
ORDER BY 1, 2, 3;
SELECT b COLLATE "C", count(*) FROM (SELECT product AS b FROM gs_sales) s
GROUP BY ROLLUP (b COLLATE "C") ORDER BY 1, 2;
-- Types of the NULL-filled columns stay those of the expressions.
SELECT DISTINCT pg_typeof(region), pg_typeof(yr), pg_typeof(price),
       pg_typeof(ok), pg_typeof(kind), pg_typeof(grouping(region))
FROM gs_sales GROUP BY CUBE (region, yr, price, ok, kind);
SELECT region, yr, price, kind, ok, grouping(region, yr), count(*),
       sum(qty), avg(price), string_agg(product, ',')
FROM gs_sales GROUP BY CUBE (region, yr, price, kind, ok) \gdesc
SELECT price, kind, ok, count(*)
FROM gs_sales GROUP BY ROLLUP (price, kind, ok)
ORDER BY price, kind, ok, 4;
SELECT sum(price) * 2, avg(yr), max(kind) FROM gs_sales
GROUP BY ROLLUP (kind) ORDER BY 1;
-- In subqueries, views, CTEs and set operations.
SELECT * FROM (SELECT region, sum(qty) AS s FROM gs_sales
               GROUP BY ROLLUP (region)) t
WHERE s > 5 ORDER BY region;
WITH totals AS (
  SELECT region, yr, sum(qty) AS s, grouping(region, yr) AS g
  FROM gs_sales GROUP BY CUBE (region, yr))
SELECT g, count(*), sum(s) FROM totals GROUP BY g ORDER BY g;
CREATE VIEW gs_view AS
  SELECT region, product, count(*) AS n, grouping(region, product) AS g
  FROM gs_sales GROUP BY ROLLUP (region, product);
SELECT * FROM gs_view ORDER BY g, region, product;
DROP VIEW gs_view;
SELECT region, count(*) FROM gs_sales GROUP BY ROLLUP (region)
UNION ALL
SELECT 'x', 0
ORDER BY 1, 2;
SELECT region, (SELECT count(*) FROM gs_regions) AS regions, count(*)
FROM gs_sales GROUP BY ROLLUP (region) ORDER BY 1, 3;
SELECT region, count(*) FROM gs_sales
WHERE region IN (SELECT region FROM gs_regions WHERE manager <> 'Cid')
GROUP BY ROLLUP (region) ORDER BY 1;
-- Correlated subqueries read the grouped values (NULL where not grouped)
-- in the output, and the rows before grouping in WHERE and aggregates.
SELECT region, (SELECT manager FROM gs_regions r WHERE r.region = s.region)
FROM gs_sales s GROUP BY ROLLUP (region) ORDER BY grouping(region), 1;
SELECT region, yr, count(*) FROM gs_sales s GROUP BY CUBE (region, yr)
HAVING EXISTS (SELECT 1 FROM gs_regions r WHERE r.region = s.region)
ORDER BY 1, 2, 3;
SELECT region, count(*) FROM gs_sales s GROUP BY ROLLUP (region)
ORDER BY (SELECT manager FROM gs_regions r WHERE r.region = s.region) DESC,
         2;
SELECT region, sum((SELECT length(manager) FROM gs_regions r
                    WHERE r.region = s.region)) AS letters
FROM gs_sales s
WHERE qty < (SELECT count(*) * 4 FROM gs_sales s2 WHERE s2.region = s.region)
GROUP BY ROLLUP (region) ORDER BY grouping(region), 1;
SELECT region, (SELECT count(*) FROM gs_sales s2
                WHERE s2.region = s.region AND s2.product = s.product) AS n
FROM gs_sales s GROUP BY GROUPING SETS ((region, product), region)
ORDER BY 1, n;
-- Parameters.
PREPARE gs_p(int) AS
  SELECT region, sum(qty) + $1 AS s FROM gs_sales
  WHERE qty > $1 GROUP BY ROLLUP (region) HAVING count(*) >= $1
  ORDER BY region;
EXECUTE gs_p(1);
EXECUTE gs_p(3);
DEALLOCATE gs_p;
-- Large CUBE: 12 elements give 4096 sets.
SELECT count(*) FROM (
  SELECT 1 FROM gs_sales
  GROUP BY CUBE (region, product, yr, qty, price, kind, ok, region, product,
                 yr, qty, price)) s;
SELECT count(*), sum(n) FROM (
  SELECT count(*) AS n FROM gs_sales
  GROUP BY DISTINCT CUBE (region, product, yr, qty, price, kind, ok, region,
                          product, yr, qty, price)) s;

-- Errors.
SELECT region, product FROM gs_sales GROUP BY ROLLUP (region);
SELECT region, count(*) FROM gs_sales GROUP BY ROLLUP (region)
ORDER BY product;
SELECT region, count(*) FROM gs_sales GROUP BY CUBE (region)
HAVING product IS NULL;
SELECT grouping(product) FROM gs_sales GROUP BY ROLLUP (region);
SELECT region, grouping(upper(region)) FROM gs_sales GROUP BY ROLLUP (region);
SELECT yr, grouping(yr + 1) FROM gs_sales GROUP BY ROLLUP (yr);
SELECT region FROM gs_sales GROUP BY ROLLUP (region)
HAVING grouping(product) = 0;
SELECT region FROM gs_sales GROUP BY ROLLUP (region) ORDER BY grouping(yr);
SELECT grouping(region) FROM gs_sales;
SELECT region, grouping(product) FROM gs_sales GROUP BY region;
SELECT region FROM gs_sales WHERE grouping(region) = 0
GROUP BY ROLLUP (region);
SELECT region FROM gs_sales GROUP BY ROLLUP (region, grouping(region));
SELECT region, sum(grouping(region)) FROM gs_sales GROUP BY ROLLUP (region);
SELECT region, sum(qty) FILTER (WHERE grouping(region) = 0)
FROM gs_sales GROUP BY ROLLUP (region);
SELECT * FROM gs_sales s JOIN gs_regions r ON grouping(r.region) = 0;
SELECT region FROM gs_sales GROUP BY region LIMIT grouping(region);
VALUES (grouping(1));
SELECT grouping(region, region, region, region, region, region, region,
                region, region, region, region, region, region, region,
                region, region, region, region, region, region, region,
                region, region, region, region, region, region, region,
                region, region, region, region)
FROM gs_sales GROUP BY region;
SELECT count(*) FROM gs_sales
GROUP BY CUBE (region, product, yr, qty, price, kind, ok, region, product,
               yr, qty, price, kind);
SELECT count(*) FROM gs_sales
GROUP BY CUBE (region, product, yr, qty, price, kind, ok, region, product,
               yr, qty), CUBE (region, product);
SELECT count(*) FROM gs_sales
GROUP BY GROUPING SETS ((), ()), GROUPING SETS ((), (), ()),
         GROUPING SETS ((), ()), GROUPING SETS ((), (), ()),
         GROUPING SETS ((), ()), GROUPING SETS ((), (), ()),
         GROUPING SETS ((), ()), GROUPING SETS ((), (), ()),
         GROUPING SETS ((), ()), GROUPING SETS ((), (), ());
SELECT count(*) FROM gs_sales
GROUP BY DISTINCT CUBE (region, product, yr, qty, price, kind, ok, region,
                        product, yr, qty), CUBE (region, product);
SELECT region, (SELECT count(*) FROM gs_regions r WHERE r.region = s.product)
FROM gs_sales s GROUP BY ROLLUP (region);
SELECT region, count(*) FROM gs_sales GROUP BY ROLLUP (region, 3);
SELECT region, count(*) FROM gs_sales GROUP BY ROLLUP (region, 2);
SELECT region, row_number() OVER () FROM gs_sales GROUP BY CUBE (region, 2);
SELECT region, count(*) FROM gs_sales GROUP BY ROLLUP (nosuch);
SELECT region, count(*) FROM gs_sales GROUP BY ROLLUP (count(*));
DROP TABLE gs_sales, gs_regions;
