--
-- ALTER TABLE ... ADD CONSTRAINT ... CHECK over a domain column: the column
-- reads as its base type, as in CREATE TABLE's checks.
--
CREATE DOMAIN posint AS int CHECK (value > 0);
CREATE DOMAIN short_text AS varchar(10);
CREATE TABLE dc (id int, v posint, s short_text);
INSERT INTO dc VALUES (1, 5, 'abc'), (2, 150, 'defgh');
ALTER TABLE dc ADD CONSTRAINT v_small CHECK (v < 100);
ALTER TABLE dc ADD CONSTRAINT v_small CHECK (v < 100) NOT VALID;
INSERT INTO dc VALUES (3, 200, 'x');
ALTER TABLE dc VALIDATE CONSTRAINT v_small;
DELETE FROM dc WHERE v >= 100;
ALTER TABLE dc VALIDATE CONSTRAINT v_small;
ALTER TABLE dc ADD CONSTRAINT s_len CHECK (length(s) < 5 OR s = 'defgh');
ALTER TABLE dc ADD CONSTRAINT s_low CHECK (s = lower(s));
INSERT INTO dc VALUES (4, 6, 'ABC');
INSERT INTO dc VALUES (5, 7, 'abcdef');
ALTER TABLE dc ADD CONSTRAINT v_plus CHECK (v + 1 > 1);
SELECT id, v, s FROM dc ORDER BY id;
DROP TABLE dc;
DROP DOMAIN posint;
DROP DOMAIN short_text;
