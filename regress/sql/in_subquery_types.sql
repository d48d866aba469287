-- x IN / op ANY / op ALL (SELECT ...) between different numeric types
-- compare in the types PostgreSQL's operators choose: float8 = numeric as
-- float8, numeric = integer as numeric.
CREATE TABLE ist_values (a int, b bigint, c numeric, d float8, r real);
INSERT INTO ist_values VALUES (1, 2, 3.5, 4.25, 0.5), (2, 3, 1.5, 1.5, 2),
  (3, NULL, 2, 3.5, NULL);
SELECT a FROM ist_values WHERE d IN (SELECT c FROM ist_values) ORDER BY a;
SELECT a FROM ist_values WHERE c IN (SELECT d FROM ist_values) ORDER BY a;
SELECT a FROM ist_values WHERE c IN (SELECT b FROM ist_values) ORDER BY a;
SELECT a FROM ist_values WHERE b IN (SELECT c FROM ist_values) ORDER BY a;
SELECT a FROM ist_values WHERE r IN (SELECT c FROM ist_values) ORDER BY a;
SELECT a FROM ist_values WHERE c NOT IN (SELECT b FROM ist_values) ORDER BY a;
SELECT a FROM ist_values WHERE c NOT IN (SELECT d FROM ist_values
                                         WHERE d IS NOT NULL) ORDER BY a;
SELECT a FROM ist_values WHERE c < ALL (SELECT d FROM ist_values) ORDER BY a;
SELECT a FROM ist_values WHERE c >= ANY (SELECT a FROM ist_values) ORDER BY a;
SELECT a FROM ist_values WHERE (a, c) IN (SELECT b - 1, d FROM ist_values)
  ORDER BY a;
SELECT a FROM ist_values WHERE 1.5 IN (SELECT d FROM ist_values) ORDER BY a;
-- Still no operator between a number and text.
SELECT a FROM ist_values WHERE c IN (SELECT 'x'::text);
