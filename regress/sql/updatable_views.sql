-- INSERT, UPDATE and DELETE through simple views (PostgreSQL's automatically
-- updatable views), and PostgreSQL's errors for views it does not update.
CREATE TABLE base (id serial PRIMARY KEY, name text NOT NULL, active boolean DEFAULT true, secret text DEFAULT 's');
CREATE VIEW active_names AS SELECT id, name, active FROM base WHERE active;
CREATE VIEW all_base AS SELECT * FROM base;
INSERT INTO active_names (name) VALUES ('a'), ('b') RETURNING *;
INSERT INTO all_base (name) VALUES ('d') RETURNING *;
INSERT INTO active_names (name, active) VALUES ('c', false);
SELECT * FROM base ORDER BY id;
UPDATE active_names SET name = upper(name) WHERE id < 4 RETURNING *;
UPDATE active_names SET name = 'zz' WHERE id = 4;
UPDATE active_names v SET name = v.name || '!' WHERE v.id = 1 RETURNING v.id, v.name;
DELETE FROM active_names WHERE name = 'B' RETURNING id;
DELETE FROM active_names WHERE id = 4;
SELECT * FROM base ORDER BY id;
-- columns the view does not show are not the statement's
UPDATE active_names SET secret = 'x';
INSERT INTO active_names (secret) VALUES ('x');
UPDATE active_names SET name = 'q' WHERE secret = 's';
SELECT * FROM active_names ORDER BY id;
-- views PostgreSQL does not update
CREATE VIEW agg AS SELECT count(*) AS n FROM base;
CREATE VIEW dist AS SELECT DISTINCT name FROM base;
CREATE VIEW lim AS SELECT * FROM base LIMIT 1;
CREATE VIEW joined AS SELECT b1.id FROM base b1, base b2;
INSERT INTO agg VALUES (1);
UPDATE dist SET name = 'x';
DELETE FROM lim;
DELETE FROM joined;
PREPARE pv(text) AS UPDATE active_names SET name = $1 WHERE id = 1 RETURNING name;
EXECUTE pv('prep');
SELECT * FROM base ORDER BY id;
DROP VIEW agg, dist, lim, joined, active_names, all_base; DROP TABLE base;
-- renamed columns (and a qualified select list)
CREATE TABLE cust (id serial PRIMARY KEY, name text, email text, secret text DEFAULT 'x');
CREATE VIEW cv AS SELECT c.id AS cust_id, name AS customer, email FROM cust c WHERE email IS NOT NULL;
INSERT INTO cv (customer, email) VALUES ('ann', 'a@x') RETURNING *;
INSERT INTO cv VALUES (DEFAULT, 'bob', 'b@x') RETURNING cust_id, customer, upper(customer) AS up;
UPDATE cv SET customer = customer || '!' WHERE cust_id = 1 RETURNING customer, cust_id;
UPDATE cv SET email = NULL WHERE customer = 'bob' RETURNING *;
SELECT * FROM cust ORDER BY id;
DELETE FROM cv WHERE customer LIKE 'ann%' RETURNING cust_id;
SELECT * FROM cust ORDER BY id;
UPDATE cv SET name = 'x';
INSERT INTO cv (id) VALUES (5);
DROP VIEW cv; DROP TABLE cust;
