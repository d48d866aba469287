-- kova-specific
-- Views PostgreSQL updates automatically that Kova does not yet: computed
-- columns, and views over views. Each is refused with 0A000 and changes
-- nothing.
\set VERBOSITY verbose
CREATE TABLE uvb (id int, name text);
INSERT INTO uvb VALUES (1, 'a');
CREATE VIEW plain AS SELECT id AS key, name FROM uvb;
CREATE VIEW computed AS SELECT id, upper(name) AS shout FROM uvb;
CREATE VIEW over_view AS SELECT * FROM plain;
INSERT INTO computed (id) VALUES (2);
DELETE FROM over_view;
SELECT * FROM uvb;
DROP VIEW over_view, computed, plain;
DROP TABLE uvb;
