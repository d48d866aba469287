--
-- Enum types: CREATE TYPE ... AS ENUM, ALTER TYPE, enum columns, casts,
-- ordering in the enum's sort order, DROP TYPE
--
CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
CREATE TYPE mood AS ENUM ('x');
CREATE TYPE nosuch_schema.mood AS ENUM ('x');
CREATE TYPE public.rainbow AS ENUM ('red', 'orange', 'yellow', 'green', 'blue', 'purple');
CREATE TYPE empty_enum AS ENUM ();

-- literals and casts
SELECT 'happy'::mood;
SELECT 'nope'::mood;
SELECT 'sad'::mood::text, 'ok'::mood::varchar(1), 'happy'::mood::text || '!';
SELECT 'ok'::text::mood;
SELECT 'sad'::mood::integer;
SELECT 1::integer::mood;
SELECT 'sad'::mood = 'sad'::text;
SELECT CAST('happy' AS mood) AS m;
SELECT pg_typeof('ok'::mood);

-- comparisons follow the declaration order, not the alphabet
SELECT 'sad'::mood < 'happy'::mood AS lt, 'happy'::mood > 'ok'::mood AS gt,
       'ok'::mood = 'ok' AS eq, 'ok'::mood <> 'sad' AS ne,
       'ok'::mood BETWEEN 'sad' AND 'happy' AS btw;
SELECT 'red'::rainbow < 'sad'::mood;
SELECT greatest('sad'::mood, 'happy', 'ok'), least('happy'::mood, 'ok');

-- enum columns
CREATE TABLE person (name text, current_mood mood);
INSERT INTO person VALUES ('Moe', 'happy'), ('Larry', 'sad'), ('Curly', 'ok'),
  ('Shemp', NULL), ('Joe', 'happy');
INSERT INTO person VALUES ('Bad', 'angry');
INSERT INTO person SELECT name, name FROM person WHERE name = 'Moe';
INSERT INTO person SELECT 'Copy', current_mood FROM person WHERE name = 'Curly';
SELECT * FROM person ORDER BY current_mood, name;
SELECT * FROM person ORDER BY current_mood DESC NULLS LAST, name;
SELECT name FROM person WHERE current_mood > 'sad' ORDER BY name;
SELECT name FROM person WHERE current_mood = 'happy' ORDER BY name;
SELECT name FROM person WHERE current_mood IN ('ok', 'sad') ORDER BY name;
SELECT min(current_mood), max(current_mood), count(DISTINCT current_mood) FROM person;
SELECT current_mood, count(*) FROM person GROUP BY current_mood ORDER BY current_mood;
SELECT name, current_mood::text AS t FROM person WHERE current_mood::text < 'p' ORDER BY name;
UPDATE person SET current_mood = 'ok' WHERE name = 'Joe';
UPDATE person SET current_mood = 'furious' WHERE name = 'Joe';
SELECT * FROM person WHERE name = 'Joe';
SELECT current_mood FROM person WHERE name = 'Joe' AND current_mood >= 'ok';

-- indexes and unique constraints
CREATE TABLE mood_log (id int PRIMARY KEY, m mood UNIQUE);
CREATE INDEX mood_log_m ON mood_log (m);
INSERT INTO mood_log VALUES (1, 'ok'), (2, 'happy'), (3, 'sad');
INSERT INTO mood_log VALUES (4, 'ok');
SELECT * FROM mood_log WHERE m >= 'ok' ORDER BY m;
SELECT * FROM mood_log ORDER BY m DESC LIMIT 2;

-- ALTER TYPE ... ADD VALUE
ALTER TYPE mood ADD VALUE 'ecstatic';
ALTER TYPE mood ADD VALUE 'meh' BEFORE 'ok';
ALTER TYPE mood ADD VALUE 'fine' AFTER 'ok';
ALTER TYPE mood ADD VALUE 'miserable' BEFORE 'sad';
ALTER TYPE mood ADD VALUE 'ok';
ALTER TYPE mood ADD VALUE IF NOT EXISTS 'ok';
ALTER TYPE mood ADD VALUE IF NOT EXISTS 'content' AFTER 'fine';
ALTER TYPE mood ADD VALUE 'x' BEFORE 'nope';
ALTER TYPE nosuch ADD VALUE 'x';
INSERT INTO mood_log VALUES (5, 'meh'), (6, 'fine'), (7, 'ecstatic'), (8, 'miserable'), (9, 'content');
SELECT * FROM mood_log ORDER BY m;
SELECT m FROM mood_log WHERE m BETWEEN 'meh' AND 'fine' ORDER BY m DESC;
SELECT enum_first(NULL::mood), enum_last(NULL::mood), enum_first('ok'::mood);
SELECT enum_first('ok');
SELECT enum_first(1);
SELECT m, enum_first(m), enum_last(m) FROM mood_log WHERE id = 5;
-- an enum without labels has no first or last, when one is asked for
SELECT enum_first(NULL::empty_enum) FROM mood_log WHERE false;
SELECT enum_last(NULL::empty_enum);

-- RENAME VALUE keeps stored rows
ALTER TYPE mood RENAME VALUE 'ok' TO 'okay';
ALTER TYPE mood RENAME VALUE 'nope' TO 'x';
ALTER TYPE mood RENAME VALUE 'sad' TO 'happy';
SELECT * FROM person ORDER BY current_mood, name;
SELECT * FROM mood_log WHERE m = 'okay';
SELECT 'ok'::mood;

-- COPY
COPY (SELECT * FROM person ORDER BY name) TO stdout;
COPY person (name, current_mood) FROM stdin;
Zeppo	ecstatic
Gummo	\N
\.
COPY person FROM stdin;
Harpo	jolly
\.
SELECT * FROM person WHERE name IN ('Zeppo', 'Gummo') ORDER BY name;

-- prepared statements with enum parameters
PREPARE by_mood(mood) AS SELECT name FROM person WHERE current_mood = $1 ORDER BY name;
EXECUTE by_mood('happy');
EXECUTE by_mood('nope');
DEALLOCATE by_mood;

-- rename, owner, schema, comment
ALTER TYPE rainbow RENAME TO colors;
SELECT 'red'::colors;
SELECT 'red'::rainbow;
ALTER TYPE colors OWNER TO postgres;
ALTER TYPE public.colors OWNER TO nosuch_role;
COMMENT ON TYPE colors IS 'the colours';
CREATE SCHEMA enum_s;
ALTER TYPE colors SET SCHEMA enum_s;
SELECT 'blue'::enum_s.colors;
SELECT 'blue'::colors;
CREATE TABLE paint (c enum_s.colors);
INSERT INTO paint VALUES ('green'), ('red');
SELECT c FROM paint ORDER BY c;
ALTER TYPE mood ADD VALUE 'x' AFTER 'nope';

-- DROP TYPE
DROP TYPE mood;
DROP TYPE mood RESTRICT;
DROP TABLE mood_log;
DROP TYPE nosuch;
DROP TYPE IF EXISTS nosuch;
DROP TYPE empty_enum, nosuch;
DROP TABLE person;
DROP TYPE mood;
SELECT 'ok'::mood;
DROP TABLE paint;
DROP TYPE enum_s.colors CASCADE;
DROP TYPE empty_enum;
DROP SCHEMA enum_s;

-- transactional DDL
BEGIN;
CREATE TYPE tmood AS ENUM ('a', 'b');
SELECT 'b'::tmood;
ROLLBACK;
SELECT 'b'::tmood;
-- Unqualified type names follow search_path, for lookup and creation.
CREATE SCHEMA enum_path;
SET search_path = enum_path, public;
CREATE TYPE color AS ENUM ('red', 'green');
CREATE DOMAIN shade AS color CHECK (VALUE <> 'green');
CREATE TABLE painted (c color, s shade);
INSERT INTO painted VALUES ('green', 'red');
SELECT * FROM painted;
RESET search_path;
SELECT 'red'::color;
SELECT 'red'::enum_path.color, 'red'::enum_path.shade;
SELECT * FROM enum_path.painted;
DROP TABLE enum_path.painted;
DROP DOMAIN enum_path.shade;
DROP TYPE enum_path.color;
DROP SCHEMA enum_path;

-- DROP SCHEMA takes its enums and domains; RESTRICT refuses while they are
-- there. Objects are listed in creation order, dependents after them.
CREATE SCHEMA enum_drop;
CREATE TYPE enum_drop.mood AS ENUM ('sad', 'ok');
CREATE DOMAIN enum_drop.pos AS int CHECK (VALUE > 0);
CREATE TABLE enum_drop.t (id serial, m enum_drop.mood, p enum_drop.pos);
CREATE SEQUENCE enum_drop.q;
CREATE VIEW enum_drop.v AS SELECT * FROM enum_drop.t;
CREATE TYPE enum_drop.e2 AS ENUM ('x');
DROP SCHEMA enum_drop;
DROP SCHEMA enum_drop CASCADE;
SELECT 'ok'::enum_drop.mood;
CREATE SCHEMA enum_drop;
CREATE TYPE enum_drop.mood AS ENUM ('sad', 'ok');
DROP SCHEMA enum_drop;
DROP SCHEMA enum_drop CASCADE;
-- Columns of other schemas' tables go with the types they use, foreign
-- keys with the tables they reference.
CREATE SCHEMA enum_drop;
CREATE DOMAIN enum_drop.d AS text;
CREATE TYPE enum_drop.e AS ENUM ('a', 'b');
CREATE DOMAIN enum_drop.d2 AS enum_drop.d CHECK (VALUE <> '');
CREATE TABLE enum_drop.ref (id int PRIMARY KEY, k text UNIQUE);
CREATE TABLE enum_users (a enum_drop.e, b enum_drop.d2, c int,
                         r int REFERENCES enum_drop.ref, k text REFERENCES enum_drop.ref (k));
INSERT INTO enum_drop.ref VALUES (1, 'k');
INSERT INTO enum_users VALUES ('b', 'x', 3, 1, 'k');
DROP SCHEMA enum_drop;
DROP SCHEMA enum_drop CASCADE;
SELECT * FROM enum_users;
INSERT INTO enum_users VALUES (4, 2, 'z');
SELECT * FROM enum_users ORDER BY c;
DROP TABLE enum_users;
-- Inside the search path, names are not qualified.
CREATE SCHEMA enum_drop;
SET search_path = enum_drop, public;
CREATE TABLE t (id int);
CREATE TYPE e AS ENUM ('a');
CREATE TABLE public.enum_users (e e);
DROP SCHEMA enum_drop;
DROP SCHEMA enum_drop CASCADE;
RESET search_path;
DROP TABLE enum_users;

-- DROP TYPE ... CASCADE drops the columns of the type (and domains over it,
-- their columns, views showing it).
CREATE TYPE casc AS ENUM ('a', 'b');
CREATE DOMAIN casc_d AS casc CHECK (VALUE <> 'b');
CREATE TABLE casc_t1 (id int, x casc, y casc_d, z int);
CREATE TABLE casc_t2 (x casc);
CREATE VIEW casc_v AS SELECT 'a'::casc AS c;
INSERT INTO casc_t1 VALUES (1, 'a', 'a', 3);
INSERT INTO casc_t2 VALUES ('b');
DROP TYPE casc_d;
DROP DOMAIN casc_d CASCADE;
SELECT * FROM casc_t1;
DROP TYPE casc;
DROP TYPE casc CASCADE;
SELECT * FROM casc_t1;
SELECT * FROM casc_t2;
SELECT * FROM casc_v;
INSERT INTO casc_t1 VALUES (2, 4);
SELECT * FROM casc_t1 ORDER BY id;
DROP TABLE casc_t1, casc_t2;
-- Keys, indexes and checks on the columns go with them; columns are listed
-- last to first within a table.
CREATE TYPE casc AS ENUM ('a', 'b');
CREATE TABLE casc_p (k casc PRIMARY KEY, y casc, n int, CHECK (y > 'a'));
CREATE INDEX casc_p_y ON casc_p (y);
CREATE TABLE casc_q (id int, k casc REFERENCES casc_p);
INSERT INTO casc_p VALUES ('a', 'b', 1);
INSERT INTO casc_q VALUES (1, 'a');
DROP TYPE casc CASCADE;
SELECT * FROM casc_p;
SELECT * FROM casc_q;
INSERT INTO casc_p VALUES (1), (1);
DROP TABLE casc_p, casc_q;

-- arrays of enums: columns, literals, casts, comparison in the enum's
-- order, array functions, COPY, enum_range
CREATE TYPE weekday AS ENUM ('mon', 'tue', 'wed', 'thu', 'fri');
SELECT '{tue,mon}'::weekday[];
SELECT ARRAY['wed', 'mon']::weekday[], pg_typeof(ARRAY['wed']::weekday[]);
SELECT '{sun}'::weekday[];
SELECT ARRAY['fri', 'sun']::weekday[];
SELECT '{mon,tue}'::weekday[] < '{tue}'::weekday[] AS lt,
       '{fri}'::weekday[] > '{mon,mon}'::weekday[] AS gt,
       ARRAY['wed']::weekday[] = '{wed}' AS eq;
SELECT ('{tue,fri}'::weekday[])[2], array_length('{mon,tue,wed}'::weekday[], 1);
SELECT 'wed'::weekday = ANY ('{mon,wed}'::weekday[]) AS any,
       'thu'::weekday > ALL ('{mon,wed}'::weekday[]) AS all;
SELECT array_append('{mon}'::weekday[], 'fri'), array_prepend('thu'::weekday, '{mon}'::weekday[]),
       array_cat('{mon}'::weekday[], '{tue}'::weekday[]);
SELECT array_position('{mon,tue,wed}'::weekday[], 'wed'), array_remove('{mon,tue,mon}'::weekday[], 'mon');
SELECT '{mon,fri}'::weekday[]::text[], '{tue}'::text::weekday[], '{mon}'::weekday[]::text;
SELECT '{1}'::int[]::weekday[];
CREATE TABLE shifts (id int, days weekday[]);
INSERT INTO shifts VALUES (1, '{mon,wed}'), (2, ARRAY['fri']::weekday[]), (3, '{tue,tue}'),
  (4, NULL), (5, '{}');
INSERT INTO shifts VALUES (6, '{sat}');
SELECT * FROM shifts ORDER BY days, id;
SELECT * FROM shifts ORDER BY days DESC NULLS LAST, id;
SELECT id FROM shifts WHERE days > '{mon,wed}' ORDER BY id;
SELECT id FROM shifts WHERE 'tue' = ANY (days) ORDER BY id;
SELECT id, days[1] AS first, unnest(days) AS day FROM shifts ORDER BY id, day;
SELECT array_agg(d ORDER BY d) FROM unnest('{fri,mon,wed}'::weekday[]) AS d;
SELECT min(days), max(days) FROM shifts;
UPDATE shifts SET days = array_append(days, 'thu') WHERE id = 1;
SELECT days FROM shifts WHERE id = 1;
COPY shifts FROM stdin;
7	{thu,fri}
8	\N
\.
COPY shifts FROM stdin;
9	{holiday}
\.
COPY (SELECT * FROM shifts ORDER BY id) TO stdout;
-- enum_range
SELECT enum_range(NULL::weekday), enum_range('wed'::weekday);
SELECT enum_range('tue'::weekday, 'thu'::weekday), enum_range(NULL, 'tue'::weekday),
       enum_range('thu'::weekday, NULL), enum_range(NULL::weekday, NULL);
SELECT enum_range('thu'::weekday, 'tue'::weekday), enum_range('wed'::weekday, 'wed');
SELECT pg_typeof(enum_range(NULL::weekday));
SELECT enum_range(NULL::weekday)::text[], array_length(enum_range(NULL::weekday), 1);
SELECT enum_range(NULL, NULL);
CREATE TYPE moon AS ENUM ('new', 'full');
SELECT enum_range('mon'::weekday, 'full'::moon);
DROP TYPE moon;
SELECT unnest(enum_range(NULL::weekday)) AS d ORDER BY d DESC;
ALTER TYPE weekday ADD VALUE 'sun' BEFORE 'mon';
SELECT enum_range(NULL::weekday), enum_range(NULL::weekday, 'tue');
CREATE TYPE empty_days AS ENUM ();
SELECT enum_range(NULL::empty_days);
-- DROP TYPE takes the columns of its array type
DROP TYPE weekday;
DROP TYPE weekday CASCADE;
SELECT * FROM shifts ORDER BY id;
DROP TABLE shifts;
DROP TYPE empty_days;
