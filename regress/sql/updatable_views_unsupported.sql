-- kova-specific
-- Views PostgreSQL updates automatically that Kova does not yet: renamed or
-- computed columns, and views over views. Each is refused with 0A000 and
-- changes nothing.
\set VERBOSITY verbose
CREATE TABLE uvb (id int, name text);
INSERT INTO uvb VALUES (1, 'a');
CREATE VIEW renamed AS SELECT id AS key, name FROM uvb;
CREATE VIEW computed AS SELECT id, upper(name) AS shout FROM uvb;
CREATE VIEW over_view AS SELECT * FROM renamed;
UPDATE renamed SET name = 'b' WHERE key = 1;
INSERT INTO computed (id) VALUES (2);
DELETE FROM over_view;
SELECT * FROM uvb;
DROP VIEW over_view, computed, renamed;
DROP TABLE uvb;
