--
-- Assignment casts: what INSERT, UPDATE and ALTER TABLE (defaults, USING,
-- type changes) accept without an explicit cast. One rule set serves all
-- of these statements, as in PostgreSQL.
--
CREATE TABLE ac (id int, t text, j json, jb jsonb, n int, v varchar(20));
INSERT INTO ac VALUES (1, '{"a": 1}', '{"b": 2}', '{"c": 3}', 4, 'x');
-- from text to json and jsonb the cast is explicit only
INSERT INTO ac (j) VALUES (concat('{', '}'));
INSERT INTO ac (jb) VALUES (concat('[', ']')::varchar);
INSERT INTO ac (j) SELECT t FROM ac;
INSERT INTO ac (jb) SELECT v FROM ac;
UPDATE ac SET j = t;
UPDATE ac SET jb = t;
ALTER TABLE ac ADD COLUMN j2 json DEFAULT '{}'::text;
ALTER TABLE ac ALTER COLUMN j SET DEFAULT 'null'::text;
ALTER TABLE ac ALTER COLUMN t TYPE json;
ALTER TABLE ac ALTER COLUMN t TYPE jsonb;
ALTER TABLE ac ALTER COLUMN n TYPE json USING t;
ALTER TABLE ac ALTER COLUMN n TYPE jsonb USING v;
-- an untyped literal takes the column's type; an explicit cast works
INSERT INTO ac (id, j, jb) VALUES (2, '{"lit": 1}', '[1, 2]');
INSERT INTO ac (id, j) SELECT 3, '{"sel": 1}';
UPDATE ac SET j = t::json, jb = t::jsonb WHERE id = 1;
ALTER TABLE ac ADD COLUMN j3 json DEFAULT '{}';
ALTER TABLE ac ALTER COLUMN j3 SET DEFAULT '[]';
ALTER TABLE ac ALTER COLUMN n TYPE json USING t::json;
SELECT id, t, j, jb, n, j3 FROM ac ORDER BY id;
-- json and jsonb to text, and to each other, by assignment
INSERT INTO ac (id, t, v) SELECT 4, j, jb FROM ac WHERE id = 1;
UPDATE ac SET jb = j WHERE id = 2;
UPDATE ac SET j = jb WHERE id = 3;
ALTER TABLE ac ALTER COLUMN jb TYPE text;
ALTER TABLE ac ALTER COLUMN j TYPE jsonb;
SELECT id, t, v, j, jb FROM ac ORDER BY id;
-- numbers to text, and between number types
INSERT INTO ac (id, t) VALUES (5, 1.5);
UPDATE ac SET v = id * 10 WHERE id = 5;
ALTER TABLE ac ALTER COLUMN id TYPE numeric;
ALTER TABLE ac ALTER COLUMN id TYPE bigint;
SELECT id, t, v FROM ac WHERE id = 5;
-- text to numbers or dates is explicit only
INSERT INTO ac (id) VALUES (concat('7'));
UPDATE ac SET id = t WHERE id = 5;
ALTER TABLE ac ALTER COLUMN v TYPE int;
ALTER TABLE ac ALTER COLUMN v TYPE date;
DROP TABLE ac;
-- domains take their base type's casts, and their constraints hold for
-- the rows ALTER TABLE rewrites; enums go to string types only
CREATE DOMAIN ac_posint AS int CHECK (VALUE > 0);
CREATE TYPE ac_mood AS ENUM ('sad', 'ok');
CREATE TABLE acd (id int, m ac_mood, s text, z int);
INSERT INTO acd VALUES (1, 'ok', 'sad', 0), (2, 'sad', 'ok', 5);
ALTER TABLE acd ADD COLUMN p ac_posint DEFAULT 5;
ALTER TABLE acd ADD COLUMN q ac_posint DEFAULT 0;
ALTER TABLE acd ALTER COLUMN id TYPE ac_posint;
ALTER TABLE acd ALTER COLUMN z TYPE ac_posint;
ALTER TABLE acd ALTER COLUMN z SET DEFAULT 7;
ALTER TABLE acd ALTER COLUMN p TYPE bigint;
ALTER TABLE acd ALTER COLUMN m TYPE text;
ALTER TABLE acd ALTER COLUMN s TYPE ac_mood;
ALTER TABLE acd ALTER COLUMN s TYPE ac_mood USING s::ac_mood;
INSERT INTO acd (id, p) SELECT id + 10, z FROM acd;
INSERT INTO acd (id, s) SELECT 20, m FROM acd;
UPDATE acd SET id = z WHERE id = 1;
UPDATE acd SET z = id WHERE id = 2;
SELECT * FROM acd ORDER BY id;
DROP TABLE acd;
DROP TYPE ac_mood;
DROP DOMAIN ac_posint;
