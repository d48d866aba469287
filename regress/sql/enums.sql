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
