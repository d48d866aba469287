-- real (float4) values: stored as the float they are, widened to double
-- precision from that float (1.1 is 1.10000002384185791), float arithmetic
-- for real op real, and PostgreSQL's overflow and underflow errors.
CREATE TABLE fr (x real, y float8);
INSERT INTO fr VALUES (1.1, 1.1), (0.1, 0.1), (16777217, 3), ('1e-30', '1e-300');
SELECT x, x * 3, x + y, x * x, x / 3, x::float8, x::numeric FROM fr
  WHERE x > 1e-20 ORDER BY 1;
SELECT x = 1.1 AS eq_numeric, x = 1.1::real AS eq_real, x < y AS lt_float8
  FROM fr ORDER BY x;
SELECT count(*) FROM fr WHERE x = 0.1;
SELECT count(*) FROM fr WHERE x = 0.1::real;
SELECT sum(x), avg(x), max(x), min(x) FROM fr;
SELECT 1.1::real * 3, 1.1::real + 1, 0.1::real = 0.1, 0.1::real > 0.1;
SELECT 16777217::real, 16777217::real::float8, 1.1::real::float8;
-- COPY stores the float too
COPY fr (x) FROM STDIN;
2.2
\.
SELECT x, x::float8, x * 1 FROM fr WHERE y IS NULL;
-- out of range
SELECT x * x * x * x FROM fr WHERE x < 1e-20;
SELECT y * y FROM fr WHERE y < 1e-200;
SELECT 3.4e38::real * 10::real;
SELECT 1e-30::real * 1e-30::real;
SELECT 1e308::float8 * 10;
SELECT 1e-300::float8 / 1e300;
SELECT 1e-300::float8 + 1e-300;
DROP TABLE fr;
