--
-- SELECT of constant expressions: literals, casts, operators, NULL logic,
-- column names, and the errors PostgreSQL gives for them
--
-- integer, bigint and numeric literals: the type follows the value
SELECT 1;
SELECT 1 AS one, 2 AS two, -3 AS minus_three;
SELECT 2147483647, -2147483648, 2147483648, 9223372036854775807;
SELECT 9223372036854775808;
SELECT pg_typeof(1), pg_typeof(2147483648), pg_typeof(9223372036854775808), pg_typeof(1.5);
SELECT 0.1, 1.50, 100.000, .5, 5., 1e3, 1.5e-3, 12345678901234567890.123456789;
-- float
SELECT 1.5::float8, 0.1::float8, 1e100::float8, -0.0::float8, 1::float4 / 3;
SELECT 'NaN'::float8, 'Infinity'::float8, '-inf'::float8, ' 2.5 '::float8;
SELECT 0.1::float8 + 0.2::float8, 1e15::float8 * 10, 1e16::float8, 123456789.0::float4;
SELECT pg_typeof(1.5::float8), pg_typeof(2.5::real), pg_typeof(1::double precision);
-- text and bool
SELECT 'hello', 'it''s', E'tab\there', '', ' padded ';
SELECT pg_typeof('hello'), pg_typeof('hello'::text), pg_typeof(true);
SELECT true, false, 't'::bool, 'yes'::boolean, 'off'::boolean, '1'::boolean, '  TRUE '::boolean;
SELECT 'maybe'::boolean;
-- casts
SELECT '42'::int, '  42  '::int4, '-7'::smallint, '9000000000'::bigint, 1::text, 3.7::int, -2.5::int, 2.5::int;
SELECT 'x'::varchar(3), 'abcdef'::varchar(3), 'ab'::char(4), 'abcdef'::char(2), 'abc'::character varying;
SELECT length('ab'::char(4)), 'ab'::char(4) || '|';
SELECT CAST('12' AS integer) + 1, CAST(12 AS text) || 'x', int4 '5', text 'abc', numeric '1.50';
SELECT '1.239'::numeric(5,2), 12.5::numeric(3,0), '1e3'::numeric;
SELECT '99999.5'::numeric(5,0);
SELECT 'abc'::int;
SELECT ''::int;
SELECT '1.5'::int;
SELECT '2147483648'::int;
-- a failing cast of a literal points at the literal (not at ::); a cast
-- of a typed value fails at run time, without a position
SELECT 1 + 'abc'::int, 2;
SELECT CAST('abc' AS int);
SELECT int 'abc';
SELECT * FROM (VALUES (1)) v(x) WHERE x = 'abc'::int;
SELECT x::int FROM (VALUES ('a')) v(x);
SELECT 'abc'::text::int;
SELECT '40000'::smallint;
SELECT 1::boolean, 0::boolean;
SELECT 2::boolean;
SELECT true::int, false::int;
SELECT 1.5::bool;
-- arithmetic and integer overflow
SELECT 1 + 2 * 3, (1 + 2) * 3, 7 / 2, -7 / 2, 7 % 3, -7 % 3, 2 ^ 10, 7.0 / 2;
SELECT 1 + 1.5, pg_typeof(1 + 1.5), 1 + 1.5::float8, pg_typeof(1 + 1.5::float8), pg_typeof(1::int2 + 1::int2);
SELECT 10 / 4.0, 1 / 3.0, 2.0 / 3, 1.0 * 3, 100.0 / 7;
SELECT 2147483647 + 1;
SELECT -2147483648 - 1;
SELECT 2147483647 * 2;
SELECT 2147483647::bigint + 1;
SELECT 9223372036854775807 + 1;
SELECT 32767::int2 + 1::int2;
SELECT -(-2147483648);
SELECT @ -5, abs(-5), -(5), +5, |/ 16, - -1, 2 * -3;
-- division by zero
SELECT 1 / 0;
SELECT 1 % 0;
SELECT 1.0 / 0;
SELECT 1::float8 / 0;
SELECT 1::bigint / 0::bigint;
SELECT 0 / 5, 0.0 / 5;
-- type errors
SELECT 1 + 'a';
SELECT 1 + '2';
SELECT 'a' + 1;
SELECT 'a'::text + 1;
SELECT true + 1;
SELECT 1 = 'abc';
SELECT 1 || 2;
SELECT nosuchfunction(1);
SELECT abs('x');
SELECT 1::nosuchtype;
-- column names
SELECT 1, 'a', 1 + 1, NULL;
SELECT 1::int, '1'::text, CAST(1 AS bigint), 2::varchar(3), 'x'::char;
SELECT 1 AS a, 2 b, 3 AS "Mixed Case", 4 AS "select";
SELECT true AND false, NOT true, 1 < 2, -1, (1);
SELECT CASE WHEN true THEN 1 END, COALESCE(NULL, 2), NULLIF(1, 1), GREATEST(1, 2), LEAST(1, 2);
SELECT upper('a'), length('abc'), abs(-1), 'a' || 'b', 'a' IS NULL;
-- NULL
SELECT NULL, NULL::int, NULL::text IS NULL, NULL IS NOT NULL, NULL = NULL, NULL <> 1;
SELECT pg_typeof(NULL), pg_typeof(NULL::int), 1 + NULL, 'a' || NULL, NULL || NULL;
SELECT NULL IS DISTINCT FROM NULL, NULL IS DISTINCT FROM 1, 1 IS NOT DISTINCT FROM 1, 1 IS DISTINCT FROM 2;
SELECT NULL::boolean IS TRUE, NULL::boolean IS NOT TRUE, NULL::boolean IS UNKNOWN, false IS FALSE;
SELECT 1 IN (1, 2), 3 IN (1, 2), 3 IN (1, NULL), 1 IN (1, NULL), 3 NOT IN (1, NULL), 3 NOT IN (1, 2);
-- CASE, COALESCE, NULLIF, GREATEST, LEAST
SELECT CASE WHEN 1 > 2 THEN 'a' WHEN 2 > 1 THEN 'b' ELSE 'c' END;
SELECT CASE 3 WHEN 1 THEN 'one' WHEN 3 THEN 'three' END AS word;
SELECT CASE WHEN false THEN 1 END AS no_else, CASE NULL WHEN NULL THEN 'eq' ELSE 'ne' END;
SELECT CASE WHEN true THEN 1 ELSE 2.5 END, pg_typeof(CASE WHEN true THEN 1 ELSE 2.5 END);
SELECT CASE WHEN true THEN 1 ELSE 'a' END;
SELECT CASE WHEN true THEN 1 ELSE 1 / 0 END;
SELECT COALESCE(NULL, NULL, 'x', 'y'), COALESCE(NULL::int, 7), COALESCE(1, 1 / 0), COALESCE(NULL, NULL);
SELECT COALESCE(1, 'a');
SELECT NULLIF(1, 2), NULLIF('a', 'a'), NULLIF(NULL, 1);
SELECT GREATEST(1, NULL, 3), LEAST('b', 'a', NULL), GREATEST(1, 2.5), LEAST(NULL::int, NULL);
-- string concatenation
SELECT 'abc' || 'def', 'abc' || 1, 1 || 'abc', 'x' || 1.5 || true, 'a' || 'b' || 'c';
SELECT 'ab'::varchar(2) || 'cd'::char(3) || 'e', pg_typeof('a'::varchar || 'b');
SELECT 'abc' || NULL IS NULL, concat('a', NULL, 'b', 1), concat_ws('-', 'a', NULL, 'b');
-- comparisons
SELECT 1 < 2, 2 <= 2, 3 > 4, 3 >= 3, 1 = 1, 1 <> 1, 1 != 2;
SELECT 1 = 1.0, 1.0 = 1.00, 0.1::float8 + 0.2 = 0.3, 0.1 + 0.2 = 0.3, 2147483648 > 1;
SELECT 'abc' < 'abd', 'abc' = 'abc', 'a' < 'B', 'Z' < 'a', 'abc' > 'ab', '' < 'a';
SELECT 'a '::char(3) = 'a'::char(3), 'a '::text = 'a'::text, 'a'::varchar(3) = 'a';
SELECT true > false, 'NaN'::float8 > 'Infinity'::float8, 'NaN'::float8 = 'NaN'::float8;
SELECT 2 BETWEEN 1 AND 3, 5 BETWEEN 1 AND 3, 2 NOT BETWEEN 3 AND 1, 2 BETWEEN SYMMETRIC 3 AND 1;
SELECT 'abc' LIKE 'a%', 'abc' LIKE 'A%', 'abc' ILIKE 'A%', 'abc' NOT LIKE '_b_', 'a_c' LIKE 'a\_c';
-- AND / OR / NOT with NULL: three-valued logic
SELECT true AND true, true AND false, true AND NULL, false AND false, false AND NULL, NULL::boolean AND NULL;
SELECT true OR true, true OR false, true OR NULL, false OR false, false OR NULL, NULL::boolean OR NULL;
SELECT NOT true, NOT false, NOT NULL::boolean;
SELECT NULL AND false, NULL AND true, NULL OR true, NULL OR false, NOT NULL;
SELECT 1 AND true;
SELECT 'yes' AND true;
-- VALUES and multiple rows
VALUES (1, 'one'), (2, 'two');
-- LIMIT / OFFSET, GROUP BY and HAVING without FROM
SELECT 1 LIMIT 1;
SELECT 1 AS a LIMIT 0;
SELECT 1 OFFSET 1;
SELECT 1 OFFSET 0;
SELECT 'x' LIMIT 'y';
SELECT 1 LIMIT -1;
SELECT 1 OFFSET -1;
SELECT 1 LIMIT NULL;
SELECT 1 LIMIT ALL;
SELECT 1 FETCH FIRST 1 ROW ONLY;
SELECT 1 GROUP BY 1;
SELECT count(*) HAVING count(*) > 0;
SELECT count(*) HAVING count(*) > 1;
SELECT 1 WHERE false LIMIT 1;
SELECT 1 ORDER BY 1 LIMIT 1;
SELECT now() IS NOT NULL LIMIT 1;
SELECT 2 + 2 AS four, 'a' || 'b' LIMIT 5 OFFSET 0;
SELECT 1.5::numeric LIMIT 1;
SELECT NULL LIMIT 1;
SELECT 1 LIMIT 2147483648;
SELECT 1 LIMIT 1.5;
-- no FROM, missing relations and columns
SELECT *;
SELECT nosuchcolumn;
SELECT * FROM nosuchtable;
SELECT x FROM nosuchtable AS n WHERE n.y = 1;
SELECT * FROM public.nosuchtable;
SELECT * FROM nosuchschema.nosuchtable;
-- syntax errors and their cursor positions
SELECT 1 +;
SELEC 1;
SELECT 1 2;
SELECT (1));
SELECT 1 FROM;
SELECT 1,
  2,
  3 4;
select * from;
SELECT 1; SELECT 2;
SELECT 1; SELEC 2; SELECT 3;
-- empty and comment-only statements
;
-- the session still works after all these errors
SELECT 'done' AS status;
-- an unterminated quoted string runs to the end of the file
SELECT 'unterminated;
