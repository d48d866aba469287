--
-- Domains: CREATE DOMAIN, constraints checked on casts, INSERT, UPDATE and
-- COPY, domain defaults, ALTER DOMAIN, DROP DOMAIN
--
CREATE DOMAIN posint AS integer CONSTRAINT posint_check CHECK ((VALUE > 0));
CREATE DOMAIN public.shortname AS varchar(5) NOT NULL DEFAULT 'anon';
CREATE DOMAIN evenint integer CHECK (VALUE % 2 = 0) CHECK (VALUE < 100) CONSTRAINT not_42 CHECK (VALUE <> 42);
CREATE DOMAIN posint AS integer;
CREATE DOMAIN bad AS integer UNIQUE;
CREATE DOMAIN bad AS integer PRIMARY KEY;
CREATE DOMAIN bad AS integer NOT NULL NULL;
CREATE DOMAIN bad AS integer CHECK (VALUE);
CREATE DOMAIN bad AS integer CHECK (VALUE > 0) DEFAULT 1 DEFAULT 2;
CREATE DOMAIN bad AS integer DEFAULT 'x';
CREATE DOMAIN bad AS integer CHECK (othercol > 0);
CREATE DOMAIN bad AS nosuchtype;

-- casts check the constraints
SELECT 5::posint;
SELECT (-5)::posint;
SELECT 0::posint;
SELECT NULL::posint;
SELECT NULL::shortname;
SELECT 'abc'::shortname, 'abcdefgh'::shortname;
SELECT 4::evenint, 3::evenint;
SELECT 42::evenint;
SELECT 102::evenint;
SELECT '7'::posint + 1 AS plus, pg_typeof(7::posint + 1);
SELECT CAST('12' AS posint) AS p;

-- domain columns
CREATE TABLE item (id posint PRIMARY KEY, name shortname, qty evenint DEFAULT 2);
INSERT INTO item (id) VALUES (1);
INSERT INTO item VALUES (2, 'pen', 10), (3, 'ink', 20);
INSERT INTO item VALUES (0, 'zero', 2);
INSERT INTO item VALUES (4, 'toolongname', 2);
INSERT INTO item VALUES (5, NULL, 2);
INSERT INTO item VALUES (6, 'odd', 7);
INSERT INTO item (id, name) VALUES (7, 'x');
SELECT * FROM item ORDER BY id;
SELECT id + 1 AS next, name || '!' AS shout, qty * 2 AS dbl FROM item ORDER BY id;
SELECT * FROM item WHERE id > 1 AND qty >= 10 ORDER BY qty DESC;
UPDATE item SET qty = qty + 1 WHERE id = 2;
UPDATE item SET qty = qty + 2 WHERE id = 2;
UPDATE item SET id = -1 WHERE id = 3;
UPDATE item SET name = NULL WHERE id = 3;
SELECT * FROM item ORDER BY id;
SELECT sum(qty), max(id), min(name) FROM item;

-- COPY
COPY item FROM stdin;
10	cup	4
\.
COPY item FROM stdin;
11	cup	5
\.
COPY item (id, qty) FROM stdin;
12	6
\.
COPY (SELECT * FROM item ORDER BY id) TO stdout;
COPY item (id, name) FROM stdin;
13	\N
\.

-- ALTER DOMAIN
ALTER DOMAIN posint ADD CONSTRAINT small CHECK (VALUE < 1000);
SELECT 2000::posint;
ALTER DOMAIN posint ADD CONSTRAINT tiny CHECK (VALUE < 5);
ALTER DOMAIN posint ADD CONSTRAINT small CHECK (VALUE < 10);
ALTER DOMAIN posint DROP CONSTRAINT small;
SELECT 2000::posint;
ALTER DOMAIN posint DROP CONSTRAINT small;
ALTER DOMAIN posint DROP CONSTRAINT IF EXISTS small;
ALTER DOMAIN evenint SET DEFAULT 8;
INSERT INTO item (id, name) VALUES (20, 'def');
ALTER DOMAIN evenint DROP DEFAULT;
ALTER DOMAIN evenint SET NOT NULL;
CREATE TABLE nums (n evenint);
INSERT INTO nums VALUES (4), (NULL);
ALTER DOMAIN evenint DROP NOT NULL;
INSERT INTO nums VALUES (NULL);
ALTER DOMAIN evenint SET NOT NULL;
DELETE FROM nums WHERE n IS NULL;
ALTER DOMAIN evenint SET NOT NULL;
ALTER DOMAIN evenint RENAME CONSTRAINT not_42 TO not_forty_two;
SELECT 42::evenint;
ALTER DOMAIN posint OWNER TO postgres;
ALTER DOMAIN public.posint OWNER TO postgres;
ALTER DOMAIN posint OWNER TO nosuch_role;
COMMENT ON DOMAIN posint IS 'positive integers';
ALTER DOMAIN nosuch SET DEFAULT 1;
ALTER DOMAIN evenint RENAME TO even;
SELECT 4::even;
SELECT 4::evenint;
SELECT * FROM item ORDER BY id;

-- domains over domains and over enums
CREATE DOMAIN smallpos AS posint CHECK (VALUE < 10);
SELECT 5::smallpos;
SELECT 50::smallpos;
SELECT (-1)::smallpos;
CREATE TYPE level AS ENUM ('low', 'mid', 'high');
CREATE DOMAIN notlow AS level CHECK (VALUE > 'low');
SELECT 'mid'::notlow;
SELECT 'low'::notlow;

-- DROP DOMAIN
DROP DOMAIN posint;
DROP DOMAIN nosuch;
DROP DOMAIN IF EXISTS nosuch;
DROP DOMAIN level;
DROP TABLE item;
DROP TABLE nums;
DROP DOMAIN smallpos, notlow;
DROP DOMAIN posint;
DROP DOMAIN shortname, even;
DROP TYPE level;
SELECT 1::posint;

-- transactional DDL
BEGIN;
CREATE DOMAIN tdom AS text CHECK (VALUE <> '');
SELECT 'a'::tdom;
ROLLBACK;
SELECT 'a'::tdom;

-- DROP DOMAIN ... CASCADE drops the columns of the domain, domains over it
-- and their columns.
CREATE DOMAIN dcasc AS int CHECK (VALUE > 0);
CREATE DOMAIN dcasc2 AS dcasc CHECK (VALUE < 100);
CREATE TABLE dcasc_t (id int, a dcasc, b dcasc2 NOT NULL, c text);
INSERT INTO dcasc_t VALUES (1, 5, 50, 'x');
DROP DOMAIN dcasc;
DROP DOMAIN dcasc RESTRICT;
DROP DOMAIN dcasc CASCADE;
SELECT * FROM dcasc_t;
SELECT 5::dcasc2;
DROP TABLE dcasc_t;
-- DROP SCHEMA takes the domains of the schema.
CREATE SCHEMA dom_s;
CREATE DOMAIN dom_s.code AS varchar(3) NOT NULL;
CREATE TABLE dom_user (c dom_s.code, n int);
DROP SCHEMA dom_s;
DROP SCHEMA dom_s CASCADE;
SELECT 'abc'::dom_s.code;
DROP TABLE dom_user;

-- arrays of domains: each element passes the domain's constraints
CREATE DOMAIN smallpos AS int CHECK (VALUE > 0 AND VALUE < 100);
SELECT '{1,2}'::smallpos[], ARRAY[3, 4]::smallpos[], pg_typeof('{1}'::smallpos[]);
SELECT '{1,200}'::smallpos[];
SELECT ARRAY[5, -1]::smallpos[];
SELECT '{1,NULL}'::smallpos[], NULL::smallpos[];
SELECT ('{7,8}'::smallpos[])[2] + 1 AS plus, array_length('{7,8,9}'::smallpos[], 1);
SELECT '{1,2}'::smallpos[] < '{1,3}'::smallpos[], 3 = ANY ('{1,3}'::smallpos[]);
CREATE TABLE lots (id int, sizes smallpos[]);
INSERT INTO lots VALUES (1, '{10,20}'), (2, ARRAY[5]), (3, NULL);
INSERT INTO lots VALUES (4, ARRAY[1, 100]);
UPDATE lots SET sizes = array_append(sizes, 30) WHERE id = 1;
UPDATE lots SET sizes = array_append(sizes, 300) WHERE id = 1;
SELECT * FROM lots ORDER BY sizes, id;
SELECT id, sizes[1] * 2 AS doubled FROM lots WHERE 20 = ANY (sizes);
COPY lots FROM stdin;
5	{1,2,3}
\.
COPY lots FROM stdin;
6	{1,-2}
\.
COPY (SELECT * FROM lots ORDER BY id) TO stdout;
DROP DOMAIN smallpos;
DROP DOMAIN smallpos CASCADE;
SELECT * FROM lots ORDER BY id;
DROP TABLE lots;

-- a cast to a domain and a column of one are of the domain (pg_typeof);
-- what is computed from them is of the base type
CREATE DOMAIN typed_pos AS integer CHECK (VALUE > 0);
CREATE DOMAIN typed_name AS varchar(5);
CREATE DOMAIN typed_pos2 AS typed_pos;
SELECT pg_typeof(5::typed_pos), pg_typeof(5::typed_pos + 1), pg_typeof('x'::typed_name),
       pg_typeof(3::typed_pos2), pg_typeof(CAST(4 AS typed_pos)), pg_typeof(NULL::typed_pos);
CREATE TABLE typed (p typed_pos, s typed_name, q typed_pos2);
INSERT INTO typed VALUES (1, 'ab', 2);
SELECT pg_typeof(p), pg_typeof(s), pg_typeof(q), pg_typeof(p + 1), pg_typeof(s || 'x'),
       pg_typeof(-p), pg_typeof((p)) FROM typed;
SELECT pg_typeof(t.p), pg_typeof(max(p)), pg_typeof(p::int) FROM typed t GROUP BY p;
UPDATE typed SET p = 3 RETURNING pg_typeof(p), pg_typeof(q);
DROP TABLE typed;
DROP DOMAIN typed_pos2;
DROP DOMAIN typed_name;
DROP DOMAIN typed_pos;
