--
-- String functions and operators: constants (evaluated directly) and
-- table columns (evaluated inside SQLite through kova_eval).
--
SELECT length('héllo'), char_length('ab '::char(3)), character_length('x'),
       octet_length('héllo'), bit_length('abc');
SELECT lower('ABC'), upper('abc'), initcap('hello wORLD foo-bar');
SELECT substring('hello' from 2 for 3), substring('hello' from 3),
       substring('hello' for 2), substring('hello', 0, 3), substr('hello', 2),
       substr('hello', 2, 2);
SELECT substring('hello', 1, -1);
SELECT substring('foobar' from 'o(.)b'), substring('foobar' from 'z'),
       substring('foobar' similar '%#"o_b#"%' escape '#');
SELECT position('ll' in 'hello'), position('z' in 'hello'), strpos('hello', 'lo');
SELECT trim('  ab  '), trim(both 'x' from 'xxabxx'), trim(leading 'x' from 'xxab'),
       trim(trailing from 'ab  '), ltrim('zzab', 'z'), rtrim('abzz', 'z'),
       btrim('xyabyx', 'xy'), ltrim('  a'), rtrim('a  ');
SELECT replace('abcabc', 'b', 'X'), replace('abc', '', 'X'), left('hello', 2),
       left('hello', -2), right('hello', 2), right('hello', -2);
SELECT lpad('hi', 5), lpad('hi', 5, 'xy'), lpad('hello', 3), rpad('hi', 5, '*'),
       rpad('hello', 3), lpad('hi', -1), repeat('ab', 3), repeat('ab', 0),
       reverse('héllo');
SELECT split_part('a,b,c', ',', 2), split_part('a,b,c', ',', -1),
       split_part('a,b,c', ',', 5);
SELECT split_part('a,b,c', ',', 0);
SELECT concat('a', 1, NULL, true), concat_ws('-', 'a', NULL, 2),
       concat_ws(NULL, 'a', 'b');
SELECT format('%s-%I-%L', 'x', 'Hello World', 'it''s'),
       format('%3$s %1$s', 'a', 'b', 'c'), format('|%5s|%-5s|', 'ab', 'cd'),
       format('%s, %L', NULL, NULL), format('100%%'), format('%*s|', 4, 'x');
SELECT format('%z', 1);
SELECT format('%s %s', 1);
SELECT format('%I', NULL);
SELECT md5('abc'), md5(''), ascii('A'), ascii(''), chr(65), chr(233),
       to_hex(255), to_hex(-1), to_hex(4294967296::bigint);
SELECT chr(0);
SELECT quote_ident('abc'), quote_ident('Abc'), quote_ident('select'),
       quote_ident('a"b'), quote_literal('it''s'), quote_literal(E'a\\b'),
       quote_literal(42), quote_nullable(NULL), quote_nullable('x');
SELECT starts_with('hello', 'he'), starts_with('hello', 'lo'), 'hello' ^@ 'he',
       translate('12345', '143', 'ax');
SELECT regexp_replace('foobarbaz', 'b..', 'X'),
       regexp_replace('foobarbaz', 'b(.)(.)', '<\2\1>', 'g'),
       regexp_replace('ABC', 'b', 'x', 'i'), regexp_like('abc', 'B', 'i'),
       regexp_count('abcabc', 'b');
SELECT regexp_replace('abc', 'b', 'x', 'z');
SELECT num_nulls(1, NULL, 3), num_nonnulls(1, NULL, 3), length(NULL),
       starts_with('a', NULL);
-- LIKE, ILIKE, SIMILAR TO and regular expressions
SELECT 'abc' LIKE 'a%', 'abc' LIKE 'a_c', 'abc' NOT LIKE 'a%', 'abc' ILIKE 'A_C',
       'abc' NOT ILIKE 'x%', 'ABC' LIKE 'abc';
SELECT 'a%c' LIKE 'a\%c', 'abc' LIKE 'a\%c', 'a%c' LIKE 'a#%c' ESCAPE '#',
       'a_c' LIKE 'a$_c' ESCAPE '$', 'a\c' LIKE 'a\c' ESCAPE '';
SELECT 'abc' LIKE 'ab' ESCAPE 'xy';
SELECT 'abc' LIKE 'ab\';
SELECT 'abc' SIMILAR TO 'abc', 'abc' SIMILAR TO 'a(b|c)+', 'abc' NOT SIMILAR TO 'a%',
       'abd' SIMILAR TO 'ab[cd]', 'a.c' SIMILAR TO 'a.c', 'abc' SIMILAR TO 'a.c';
SELECT 'abc' ~ 'b', 'abc' ~ '^b', 'ABC' ~* 'b', 'abc' !~ 'x', 'abc' !~* 'B',
       'foo123' ~ '[0-9]+$', 'x' ~ '[[:alpha:]]';
-- || with non-text operands
SELECT 'a' || 1, 1 || 'a', 'a' || true, 'x' || 1.5, 'a'::char(3) || 'b',
       'd: ' || date '2020-01-02', 'a' || NULL;
SELECT 1 || 2;
-- comparisons
SELECT 'a' < 'b', 'abc' = 'abc'::varchar, 'a  '::char(3) = 'a', 'b'::name > 'a',
       'a' <> 'b';
SELECT pg_typeof(lower('A')), pg_typeof(length('a')), pg_typeof('a' || 1),
       pg_typeof(strpos('a', 'b')), pg_typeof(starts_with('a', 'b'));
SELECT lpad(1, 3);
-- over a table
CREATE TABLE fs_t (id int, t text, v varchar(10), c char(4), n numeric);
INSERT INTO fs_t VALUES (1, 'Hello', 'abc', 'ab', 2.5),
  (2, 'World', 'x', 'xyz', -1), (3, NULL, NULL, NULL, NULL);
SELECT id, length(t), upper(t), lower(v), substring(t from 2 for 2),
       position('l' in t), lpad(v, 5, '*'), t || id, id || t, c || 'x',
       length(c), octet_length(c) FROM fs_t ORDER BY id;
SELECT id, concat(t, id, n), concat_ws('/', t, v, c), format('%s=%L', t, n),
       replace(t, 'l', 'L'), split_part(t, 'l', 1), md5(t), reverse(v),
       initcap(v), quote_literal(n), quote_nullable(n)
  FROM fs_t ORDER BY id;
SELECT id, t LIKE 'H%', t ILIKE '%O%', t ~ '^W', t SIMILAR TO '%o%',
       regexp_replace(t, '[lo]', '_', 'g'), translate(t, 'lo', '01'),
       trim(both 'H' from t), num_nulls(t, v, c), t > 'I'
  FROM fs_t ORDER BY id;
SELECT id FROM fs_t WHERE t LIKE '%o%' AND v NOT LIKE 'z%' ORDER BY id;
SELECT id FROM fs_t WHERE lower(t) ~ 'w' OR starts_with(v, 'ab') ORDER BY id;
DROP TABLE fs_t;
-- COLLATE (only the C-locale collations exist)
SELECT 'abc' OPERATOR(pg_catalog.~) '^(abc)$' COLLATE pg_catalog.default,
       'b' < 'a' COLLATE "C", 'x' COLLATE "POSIX";
SELECT 1 COLLATE "C";
SELECT 'a' COLLATE "no_such_collation";
-- char(n) keeps its padding for LIKE and regular expressions
SELECT 'ab'::char(4) LIKE 'ab', 'ab'::char(4) LIKE 'ab%', 'ab'::char(4) ~ 'b$',
       'ab'::char(4) || 'c', length('ab'::char(4)), upper('ab'::char(4)) || '|';
-- Case mapping follows the database's LC_CTYPE (C.UTF-8): every letter
-- with a simple case mapping, not only ASCII ones; ILIKE folds the same way.
SELECT lower('ÉA Straße ΣΑΣ'), upper('éa straße σας ǆ'),
       initcap('éa bÉ ǆemal hello-wORLD 3rd');
SELECT 'é' ILIKE 'É', 'ÉCOLE' ILIKE 'éc%', 'x' NOT ILIKE 'X', 'Ω' ILIKE 'ω';
SELECT lower('İ'), upper('ı'), upper('ﬁ'), lower('ÅNGSTRÖM'), initcap('ǅ');
-- keywords quote_ident quotes are PostgreSQL 15's (system_user is not one)
SELECT quote_ident('system_user'), quote_ident('left'), quote_ident('select'), quote_ident('name');
