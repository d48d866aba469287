--
-- Mathematical functions and operators: result types and values as
-- PostgreSQL computes them (numeric scales, float8 output).
--
SELECT abs(-5), abs(-5.5), abs(-2.5::float8), abs(-3::int2), abs(-7::int8),
       abs(-1.5::float4);
SELECT abs(-2147483648);
SELECT round(2.5), round(-2.5), round(2.5::float8), round(3.5::float8),
       round(3.14159, 2), round(1234.5, -2), round(0.5, 0), round(1.005, 2);
SELECT trunc(3.789), trunc(-3.789, 1), trunc(3.7::float8), trunc(1234.5, -2),
       ceil(4.2), ceil(-4.2), ceiling(4.2::float8), ceil(4.0), floor(-4.2),
       floor(4.0), floor(4.7::float8);
SELECT sign(-3.5), sign(0.0), sign(2), sign(0::float8), sign(-1::float8);
SELECT mod(10, 3), mod(-10, 3), mod(-10.5, 3), mod(10::int2, 3::int2),
       mod(10::int8, 4), 10 % 3, -7.5 % 2, 7 % -3, 5.5 % 1.25;
SELECT mod(1, 0);
SELECT 1.5 % 0;
SELECT div(9, 4), div(-9.5, 4), div(9.9, 0.5);
SELECT power(2, 10), power(2.0, 0.5), pow(2::numeric, 3), 2.0 ^ 3, 2 ^ 0.5,
       2 ^ 10, 2.5 ^ 2, 2.0 ^ -2, 4.0 ^ 0.5, 0.0 ^ 0;
SELECT 0 ^ -1;
SELECT (-8) ^ (1.0 / 3);
SELECT (-2.0) ^ 0.5;
SELECT sqrt(2), sqrt(2.0), sqrt(16::numeric), sqrt(0.0001), cbrt(27),
       cbrt(-8::float8), |/ 25, ||/ 27, @ -5, @ -5.5;
SELECT sqrt(-1);
SELECT sqrt(-1.0);
SELECT exp(1), exp(1.0), exp(0), exp(0.0), exp(-1.0), ln(2), ln(2.0), ln(10.5),
       ln(1.0);
SELECT ln(0);
SELECT ln(-1.0);
SELECT log(100), log(100.0), log(2, 64), log(2.0, 8), log10(1000),
       log10(1000::numeric), log10(0.001);
SELECT log(-1.0);
SELECT pi(), degrees(pi()), radians(180), sin(0), cos(0), tan(0), asin(1),
       acos(1), atan(1), atan2(1, 1);
SELECT asin(2);
SELECT gcd(12, 18), gcd(-12, 18), gcd(0, 5), lcm(4, 6), lcm(0, 5),
       gcd(12::int8, 18), gcd(12.5, 5), lcm(1.5, 2.5);
SELECT width_bucket(5.35, 0.024, 10.06, 5), width_bucket(5, 0, 10, 3),
       width_bucket(-1, 0, 10, 3), width_bucket(10, 0, 10, 3),
       width_bucket(5, 10, 0, 4);
SELECT width_bucket(5, 0, 10, 0);
SELECT scale(1.500), scale(2), min_scale(1.500), min_scale(0), trim_scale(1.500),
       trim_scale(10), factorial(5), factorial(0), factorial(20);
-- arithmetic across types
SELECT 1 + 1.5, 1 / 3.0, 1::float4 + 1.5::float4, 5 / 2, -5 / 2, 1 + 2::int8,
       2::int2 * 3::int2, 1.5::float4 * 2, 10 / 4.0::float8, 2 - 0.5;
SELECT pg_typeof(1 + 1.5), pg_typeof(1 + 1.5::float8), pg_typeof(1::int2 + 1::int2),
       pg_typeof(1 + 1::int8), pg_typeof(1.5::float4 + 1), pg_typeof(2 ^ 2),
       pg_typeof(2.0 ^ 2), pg_typeof(round(1.5)), pg_typeof(round(1.5::float4)),
       pg_typeof(abs(1::int2)), pg_typeof(mod(1::int2, 1::int2)),
       pg_typeof(sqrt(2)), pg_typeof(sqrt(2.0)), pg_typeof(div(1, 1)),
       pg_typeof(10 % 3.0);
SELECT 2147483647 + 1;
SELECT -(-2147483648);
SELECT 9223372036854775807 + 1;
SELECT 1 / 0, 2;
SELECT 1.0 / 0;
SELECT 1.0::float8 / 0;
SELECT exp(1000::float8);
SELECT 1 = 1.0, 1 < 1.5, 2::int8 > 1, 1.5::float4 = 1.5, 0.1::float8 = 0.1,
       1 <> 2::int2, 3 = 3.0::float8;
SELECT -(1::int2), -1.5, -(1.5::float8), +5, - -5;
-- unknown literals against numbers
SELECT 1 + '2', '3' * 2.5, 2 ^ '3';
SELECT '1' + '2';
-- over a table
CREATE TABLE fm_t (id int, i int, b bigint, n numeric, f float8);
INSERT INTO fm_t VALUES (1, 7, 10000000000, 2.5, 1.5), (2, -3, -5, -1.25, -2.5),
  (3, NULL, NULL, NULL, NULL);
SELECT id, i * 2 + n, n % 2, n ^ 2, -n, -f, abs(n), abs(i), round(n, 1),
       round(f), sqrt(abs(f)), mod(i, 2), power(f, 2), greatest(i, n, f),
       least(i, n), trunc(n), ceil(n), floor(f), sign(n), b / i, b % 7
  FROM fm_t ORDER BY id;
SELECT id, exp(n), ln(abs(n)), log(abs(f)), div(n, 1), gcd(i, 6), i & 1 = 1
  FROM fm_t WHERE id < 3 ORDER BY id;
SELECT id FROM fm_t WHERE n * 2 > 0 OR abs(f) > 2 ORDER BY id;
SELECT sum(n), sum(f), max(abs(i)) FROM fm_t;
DROP TABLE fm_t;
-- the most negative bigint has no positive counterpart
select abs((-9223372036854775808)::int8);
select -((-9223372036854775808)::int8);
select @((-9223372036854775808)::int8);
select abs(x) from (values ((-9223372036854775808)::int8)) v(x);
select -x from (values ((-9223372036854775808)::int8)) v(x);
select abs((-2147483648)::int4), abs((-32768)::int2);
select abs((-9223372036854775807)::int8), -((-9223372036854775807)::int8), @((-5)::int8);
