-- TRUNCATE ... CASCADE takes the referencing tables along, transitively,
-- with a NOTICE for each.
CREATE TABLE tc_a (id int PRIMARY KEY);
CREATE TABLE tc_b (id int PRIMARY KEY, a int REFERENCES tc_a);
CREATE TABLE tc_c (id int PRIMARY KEY, b int REFERENCES tc_b);
CREATE TABLE tc_d (id int PRIMARY KEY, a int REFERENCES tc_a);
INSERT INTO tc_a VALUES (1), (2);
INSERT INTO tc_b VALUES (1, 1);
INSERT INTO tc_c VALUES (1, 1);
INSERT INTO tc_d VALUES (1, 2);
TRUNCATE tc_a;
TRUNCATE tc_b, tc_c;
SELECT (SELECT count(*) FROM tc_a) a, (SELECT count(*) FROM tc_b) b,
       (SELECT count(*) FROM tc_c) c, (SELECT count(*) FROM tc_d) d;
INSERT INTO tc_b VALUES (1, 1);
INSERT INTO tc_c VALUES (1, 1);
TRUNCATE tc_a CASCADE;
SELECT (SELECT count(*) FROM tc_a) a, (SELECT count(*) FROM tc_b) b,
       (SELECT count(*) FROM tc_c) c, (SELECT count(*) FROM tc_d) d;
DROP TABLE tc_c, tc_b, tc_d, tc_a;
