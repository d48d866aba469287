-- Columns of a table whose whole primary key is grouped may appear
-- ungrouped (PostgreSQL's functional dependency): one value per group.
CREATE TABLE gpk_parent (id int PRIMARY KEY, name text, note text);
CREATE TABLE gpk_child (id serial PRIMARY KEY, pid int REFERENCES gpk_parent,
                        amount int);
INSERT INTO gpk_parent VALUES (1, 'a', 'x'), (2, 'b', 'y'), (3, 'c', NULL);
INSERT INTO gpk_child (pid, amount) VALUES (1, 10), (1, 20), (2, 5);

SELECT p.id, p.name, p.note, count(c.id), sum(c.amount)
  FROM gpk_parent p LEFT JOIN gpk_child c ON c.pid = p.id
  GROUP BY p.id ORDER BY p.id;
SELECT p.*, count(c.*) FROM gpk_parent p LEFT JOIN gpk_child c ON c.pid = p.id
  GROUP BY p.id ORDER BY 1;
-- In HAVING and ORDER BY too.
SELECT name FROM gpk_parent GROUP BY id HAVING note IS NOT NULL
  ORDER BY name DESC;
SELECT upper(p.name) || ':' || count(*) AS label
  FROM gpk_parent p JOIN gpk_child c ON c.pid = p.id
  GROUP BY p.id ORDER BY p.note;
-- Grouping by more than the key.
SELECT p.name, max(c.amount) FROM gpk_parent p JOIN gpk_child c ON c.pid = p.id
  GROUP BY p.id, c.pid ORDER BY 1;
-- The other table's columns are not covered.
SELECT p.name, c.amount FROM gpk_parent p JOIN gpk_child c ON c.pid = p.id
  GROUP BY p.id;
-- A grouped child key covers the child only.
SELECT c.amount, p.name FROM gpk_parent p JOIN gpk_child c ON c.pid = p.id
  GROUP BY c.id;
-- A column grouped through a join's USING column.
SELECT id, name, count(c.amount) FROM gpk_parent
  JOIN (SELECT pid AS id, amount FROM gpk_child) c USING (id)
  GROUP BY id ORDER BY id;

-- Every key column must be grouped.
CREATE TABLE gpk_pair (a int, b int, v text, PRIMARY KEY (a, b));
INSERT INTO gpk_pair VALUES (1, 1, 'p'), (1, 2, 'q'), (2, 1, 'r');
SELECT a, b, v FROM gpk_pair GROUP BY a, b ORDER BY a, b;
SELECT a, v FROM gpk_pair GROUP BY a;
SELECT b, v, count(*) FROM gpk_pair GROUP BY b, a ORDER BY 1, 2;

-- A unique constraint is not a primary key; neither is a deferrable key.
CREATE TABLE gpk_unique (id int UNIQUE NOT NULL, v text);
SELECT v FROM gpk_unique GROUP BY id;
CREATE TABLE gpk_deferrable (id int PRIMARY KEY DEFERRABLE, v text);
SELECT v FROM gpk_deferrable GROUP BY id;

-- Only tables: not a subquery or a view over them.
SELECT s.name FROM (SELECT * FROM gpk_parent) s GROUP BY s.id;
CREATE VIEW gpk_view AS SELECT * FROM gpk_parent;
SELECT name FROM gpk_view GROUP BY id;
DROP VIEW gpk_view;

-- An expression over the key is not the key.
SELECT name FROM gpk_parent GROUP BY id + 0;

-- A view that relies on the key depends on it.
CREATE TABLE gpk_keyed (id int PRIMARY KEY, name text, u int UNIQUE);
INSERT INTO gpk_keyed VALUES (1, 'a', 1), (2, 'b', 2);
CREATE VIEW gpk_by_key AS SELECT id, name, count(*) FROM gpk_keyed GROUP BY id;
CREATE VIEW gpk_over AS SELECT * FROM gpk_by_key WHERE id > 1;
CREATE VIEW gpk_plain AS SELECT id, count(*) FROM gpk_keyed GROUP BY id;
SELECT * FROM gpk_over;
ALTER TABLE gpk_keyed DROP CONSTRAINT gpk_keyed_pkey;
ALTER TABLE gpk_keyed DROP CONSTRAINT gpk_keyed_u_key;
BEGIN;
ALTER TABLE gpk_keyed DROP CONSTRAINT gpk_keyed_pkey CASCADE;
SELECT relname FROM pg_class WHERE relname LIKE 'gpk_%' AND relkind = 'v'
  ORDER BY 1;
ROLLBACK;
CREATE OR REPLACE VIEW gpk_by_key AS
  SELECT id, name, count(*) FROM gpk_keyed GROUP BY id, name;
ALTER TABLE gpk_keyed DROP CONSTRAINT gpk_keyed_pkey;
SELECT * FROM gpk_over;
DROP TABLE gpk_keyed CASCADE;

-- Dropping several tables at once: dependencies among them are no
-- obstacle (DROP TABLE parent, child), dependencies from outside are.
CREATE TABLE gpk_other (pid int REFERENCES gpk_parent);
DROP TABLE gpk_parent, gpk_child;
DROP TABLE gpk_parent, gpk_child, gpk_other;
CREATE TABLE gpk_base (id int PRIMARY KEY);
CREATE VIEW gpk_v1 AS SELECT * FROM gpk_base;
CREATE VIEW gpk_v2 AS SELECT * FROM gpk_v1;
DROP VIEW gpk_v1;
DROP VIEW gpk_v1, gpk_v2;
DROP TABLE IF EXISTS gpk_base, gpk_missing;
DROP TABLE gpk_pair, gpk_unique, gpk_deferrable;
