--
-- ALTER TABLE ... ENABLE / DISABLE TRIGGER: a table's foreign key checks and
-- actions are its only triggers (PostgreSQL's internal ones), as in the
-- data-only dumps of pg_dump --disable-triggers; CLUSTER ON marks an index.
--
CREATE TABLE dt_parent (id int PRIMARY KEY);
CREATE TABLE dt_child (id int, p int REFERENCES dt_parent ON DELETE CASCADE);
INSERT INTO dt_parent VALUES (1), (2);
INSERT INTO dt_child VALUES (10, 1), (20, 2);
-- the referencing side: inserts are not checked while disabled
ALTER TABLE dt_child DISABLE TRIGGER ALL;
INSERT INTO dt_child VALUES (30, 99);
UPDATE dt_child SET p = 98 WHERE id = 20;
ALTER TABLE dt_child ENABLE TRIGGER ALL;
INSERT INTO dt_child VALUES (40, 97);
UPDATE dt_child SET p = 96 WHERE id = 10;
SELECT * FROM dt_child ORDER BY id;
-- the referenced side: no cascade while disabled
ALTER TABLE dt_parent DISABLE TRIGGER ALL;
DELETE FROM dt_parent WHERE id = 1;
SELECT * FROM dt_child ORDER BY id;
ALTER TABLE dt_parent ENABLE TRIGGER ALL;
INSERT INTO dt_parent VALUES (1), (3);
INSERT INTO dt_child VALUES (50, 3);
DELETE FROM dt_parent WHERE id = 3;
SELECT * FROM dt_child ORDER BY id;
-- in a transaction, undone by ROLLBACK
BEGIN;
ALTER TABLE dt_child DISABLE TRIGGER ALL;
INSERT INTO dt_child VALUES (60, 95);
ROLLBACK;
INSERT INTO dt_child VALUES (60, 95);
-- USER triggers: there are none, so nothing changes
ALTER TABLE dt_child DISABLE TRIGGER USER;
INSERT INTO dt_child VALUES (70, 94);
ALTER TABLE dt_child ENABLE TRIGGER USER;
ALTER TABLE dt_child DISABLE TRIGGER no_such_trigger;
ALTER TABLE dt_child ENABLE TRIGGER no_such_trigger;
ALTER TABLE dt_child ENABLE ALWAYS TRIGGER no_such_trigger;
-- what a data-only dump with --disable-triggers sets around them: the
-- session's own authorization
SET SESSION AUTHORIZATION DEFAULT;
RESET SESSION AUTHORIZATION;
SET ROLE NONE;
RESET ROLE;
SET SESSION AUTHORIZATION no_such_role;
SET ROLE no_such_role;
-- CLUSTER ON / SET WITHOUT CLUSTER
CREATE INDEX dt_child_id ON dt_child (id);
CREATE INDEX dt_child_p ON dt_child (p) WHERE p > 0;
CREATE INDEX dt_child_h ON dt_child USING hash (p);
ALTER TABLE dt_child CLUSTER ON dt_child_id;
SELECT indexrelid::regclass::text AS index, indisclustered FROM pg_index
  WHERE indrelid = 'dt_child'::regclass ORDER BY 1;
\d dt_child
ALTER TABLE dt_child CLUSTER ON nope;
ALTER TABLE dt_child CLUSTER ON dt_parent_pkey;
ALTER TABLE dt_child CLUSTER ON dt_child_p;
ALTER TABLE dt_child CLUSTER ON dt_child_h;
ALTER TABLE dt_parent CLUSTER ON dt_parent_pkey;
ALTER TABLE dt_child SET WITHOUT CLUSTER;
SELECT count(*) FROM pg_index WHERE indisclustered
  AND indrelid IN ('dt_child'::regclass, 'dt_parent'::regclass);
DROP TABLE dt_child, dt_parent;
