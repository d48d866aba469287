-- kova-specific
--
-- Counters through SQL: every serial, identity and sequence counter is a row
-- of admin.counters (DESIGN.md section 3, seeds/kova-autoincrement.txt).
-- The expected output was produced by PostgreSQL 15 and then edited by hand
-- where Kova differs on purpose; each such statement has a comment saying why.
-- The runner connects to the database "postgres": a counter's _id is
-- postgres.<collection>.<field>.
--
-- (objects of this file are named cnt_*: tests of a group share the database)
--
-- Kova differs: declaring a serial column writes its counter row, last = 0
CREATE TABLE cnt_orders (id serial PRIMARY KEY, sku text);
-- Kova differs: admin.counters exists only in Kova
SELECT _id, collection, field, last FROM admin.counters WHERE collection = 'postgres.cnt_orders';
-- the seed's walk-through: two inserts store 1 and 2
INSERT INTO cnt_orders (sku) VALUES ('kettle');
INSERT INTO cnt_orders (sku) VALUES ('mug');
SELECT id, sku FROM cnt_orders ORDER BY id;
-- Kova differs: admin.counters exists only in Kova
SELECT _id, last FROM admin.counters WHERE _id = 'postgres.cnt_orders.id';
-- a value the client sends is kept
INSERT INTO cnt_orders (sku, id) VALUES ('bowl', 50);
-- Kova differs: an explicit id beyond the counter moves it (seed rule 3): 51, where PostgreSQL gives 3
INSERT INTO cnt_orders (sku) VALUES ('plate') RETURNING id;
-- a lower value is kept and the counter stays
INSERT INTO cnt_orders (sku, id) VALUES ('saucer', 20);
-- Kova differs: the counter is at 51 (seed rule 3): 52, where PostgreSQL gives 4
INSERT INTO cnt_orders (sku) VALUES ('spoon') RETURNING id;
-- the unique index still refuses a duplicate
INSERT INTO cnt_orders (sku, id) VALUES ('dup', 50);
-- Kova differs: admin.counters exists only in Kova
SELECT _id, last FROM admin.counters WHERE _id = 'postgres.cnt_orders.id';
-- Kova differs: last is ordinary data; the next insert stores 11 (seed rule 4)
UPDATE admin.counters SET last = 10 WHERE _id = 'postgres.cnt_orders.id';
-- Kova differs: the counter was set to 10 by hand (seed rule 4): 11, where PostgreSQL gives 5
INSERT INTO cnt_orders (sku) VALUES ('cup') RETURNING id;
-- Kova differs: last set to 500 by hand, the next insert stores 501 (seed rule 4)
UPDATE admin.counters SET last = 500 WHERE _id = 'postgres.cnt_orders.id';
-- Kova differs: the counter was set to 500 by hand (seed rule 4): 501, where PostgreSQL gives 6
INSERT INTO cnt_orders (sku) VALUES ('glass') RETURNING id;
-- Kova differs: the same edit as a document command (seed "Move the counter by hand"); kova.command exists only in Kova
SELECT kova.command('admin', '{"update": "counters", "updates": [{"q": {"_id": "postgres.cnt_orders.id"}, "u": {"$set": {"last": 540}}, "multi": false}]}'::jsonb) IS NOT NULL AS done;
-- Kova differs: the counter was set to 540 by the document command: 541, where PostgreSQL gives 7
INSERT INTO cnt_orders (sku) VALUES ('jug') RETURNING id;
-- setval sets last = n; setval(n, false) sets last one below n
SELECT setval('cnt_orders_id_seq', 600);
INSERT INTO cnt_orders (sku) VALUES ('fork') RETURNING id;
-- Kova differs: admin.counters exists only in Kova
SELECT _id, last FROM admin.counters WHERE _id = 'postgres.cnt_orders.id';
SELECT setval('cnt_orders_id_seq', 8, false);
-- Kova differs: admin.counters exists only in Kova; setval(8, false) leaves last = 7
SELECT _id, last FROM admin.counters WHERE _id = 'postgres.cnt_orders.id';
INSERT INTO cnt_orders (sku) VALUES ('knife') RETURNING id;
-- nextval, currval and lastval read and write the same row
SELECT nextval('cnt_orders_id_seq'), currval('cnt_orders_id_seq'), lastval();
-- Kova differs: admin.counters exists only in Kova
SELECT _id, last FROM admin.counters WHERE _id = 'postgres.cnt_orders.id';
-- an UPDATE that sets the field beyond last moves it too
UPDATE cnt_orders SET id = 1000 WHERE sku = 'kettle';
-- Kova differs: the UPDATE to 1000 moved the counter (seed rule 3): 1001, where PostgreSQL gives 10
INSERT INTO cnt_orders (sku) VALUES ('tray') RETURNING id;
-- Kova differs: a counter row deleted by hand is recreated from the highest value stored (seed rule 7)
DELETE FROM admin.counters WHERE _id = 'postgres.cnt_orders.id';
-- Kova differs: admin.counters exists only in Kova
SELECT count(*) FROM admin.counters WHERE _id = 'postgres.cnt_orders.id';
-- Kova differs: the counter resumes from max(id) + 1 = 1002 (seed rule 7), where PostgreSQL gives 11
INSERT INTO cnt_orders (sku) VALUES ('lid') RETURNING id;
-- Kova differs: admin.counters exists only in Kova
SELECT _id, collection, field, last FROM admin.counters WHERE collection = 'postgres.cnt_orders';
-- Kova differs: the ids handed out above differ from PostgreSQL's
SELECT id, sku FROM cnt_orders ORDER BY id;
-- nextval is not transactional, and neither is the counter an insert advances
BEGIN;
-- Kova differs: 1003 (the counter was at 1002), where PostgreSQL gives 12
INSERT INTO cnt_orders (sku) VALUES ('rolled back') RETURNING id;
ROLLBACK;
-- Kova differs: 1003 is not handed out again: 1004, where PostgreSQL gives 13
INSERT INTO cnt_orders (sku) VALUES ('after rollback') RETURNING id;
-- Kova differs: an edit of the counter row is transactional data (seed rule 4)
BEGIN;
UPDATE admin.counters SET last = 5000 WHERE _id = 'postgres.cnt_orders.id';
ROLLBACK;
-- Kova differs: the rolled-back edit left last at 1004
SELECT _id, last FROM admin.counters WHERE _id = 'postgres.cnt_orders.id';
-- identity columns: START and INCREMENT are the counter's start and step
CREATE TABLE cnt_tickets (no integer GENERATED BY DEFAULT AS IDENTITY (START WITH 1000 INCREMENT BY 5), label text);
-- Kova differs: admin.counters exists only in Kova
SELECT _id, collection, field, last, start, increment FROM admin.counters WHERE collection = 'postgres.cnt_tickets';
INSERT INTO cnt_tickets (label) VALUES ('a'), ('b') RETURNING no;
INSERT INTO cnt_tickets (no, label) VALUES (1100, 'c');
-- Kova differs: the explicit 1100 moved the counter (seed rule 3): 1105, where PostgreSQL gives 1010
INSERT INTO cnt_tickets (label) VALUES ('d') RETURNING no;
-- Kova differs: a counter reset below its start resumes from the highest value stored (seed rule 7)
UPDATE admin.counters SET last = 0 WHERE _id = 'postgres.cnt_tickets.no';
-- Kova differs: resumes at max(no) + step = 1110 (seed rule 7), PostgreSQL gives 1015
INSERT INTO cnt_tickets (label) VALUES ('e') RETURNING no;
-- several autoincrement fields in one collection: one counter row each
CREATE TABLE cnt_multi (a serial, b bigserial, c integer GENERATED BY DEFAULT AS IDENTITY);
-- Kova differs: admin.counters exists only in Kova
SELECT _id, field, last FROM admin.counters WHERE collection = 'postgres.cnt_multi' ORDER BY _id;
INSERT INTO cnt_multi DEFAULT VALUES RETURNING *;
INSERT INTO cnt_multi (b) VALUES (100) RETURNING *;
-- Kova differs: admin.counters exists only in Kova; the explicit b = 100 moved only b's counter (seed rule 3)
SELECT _id, field, last FROM admin.counters WHERE collection = 'postgres.cnt_multi' ORDER BY _id;
DROP TABLE cnt_multi;
-- Kova differs: admin.counters exists only in Kova; dropping the table dropped its three counter rows
SELECT count(*) FROM admin.counters WHERE collection = 'postgres.cnt_multi';
-- a sequence of its own is a counter row without a field
CREATE SEQUENCE cnt_seq START 10;
SELECT nextval('cnt_seq');
-- Kova differs: admin.counters exists only in Kova; a sequence's _id is database.sequence_name
SELECT _id, collection, field, last, start FROM admin.counters WHERE _id = 'postgres.cnt_seq';
-- Kova differs: last is ordinary data (seed rule 4)
UPDATE admin.counters SET last = 41 WHERE _id = 'postgres.cnt_seq';
-- Kova differs: the counter was set to 41 by hand, PostgreSQL gives 11
SELECT nextval('cnt_seq');
-- a sequence taken as a column default: the row becomes the column's counter
CREATE SEQUENCE cnt_seq_col;
CREATE TABLE cnt_linked (n integer DEFAULT nextval('cnt_seq_col'), v text);
INSERT INTO cnt_linked (v) VALUES ('x') RETURNING n;
-- Kova differs: admin.counters exists only in Kova; the _id is the column's database.collection.field
SELECT _id, collection, field, last FROM admin.counters WHERE _id IN ('postgres.cnt_seq_col', 'postgres.cnt_linked.n');
-- the sequence outlives the table that used it (it is not OWNED BY the column)
DROP TABLE cnt_linked;
SELECT nextval('cnt_seq_col');
-- a table in another schema: the collection is database.schema.table
CREATE SCHEMA cnt_schema;
CREATE TABLE cnt_schema.items (id bigserial PRIMARY KEY, name text);
INSERT INTO cnt_schema.items (name) VALUES ('x') RETURNING id;
-- Kova differs: admin.counters exists only in Kova
SELECT _id, collection, field, last FROM admin.counters WHERE collection = 'postgres.cnt_schema.items';
-- dropping a table drops its counter rows
DROP TABLE cnt_orders, cnt_tickets, cnt_schema.items;
-- Kova differs: admin.counters exists only in Kova
SELECT count(*) FROM admin.counters WHERE collection IN ('postgres.cnt_orders', 'postgres.cnt_tickets', 'postgres.cnt_linked', 'postgres.cnt_schema.items');
DROP SEQUENCE cnt_seq, cnt_seq_col;
-- Kova differs: admin.counters exists only in Kova
SELECT count(*) FROM admin.counters WHERE _id IN ('postgres.cnt_seq', 'postgres.cnt_seq_col');
DROP SCHEMA cnt_schema;
-- A DEFERRABLE serial key keeps the unique index of its counter (DESIGN.md
-- section 3, rule 1: an autoincrement field is unique at once), so its values
-- cannot pass through duplicates.
CREATE TABLE cnt_deferrable (id serial PRIMARY KEY DEFERRABLE, v int);
INSERT INTO cnt_deferrable (v) VALUES (1), (2), (3);
-- Kova differs: PostgreSQL checks the deferrable key at the statement's end
-- and the UPDATE succeeds; the counter's index refuses the duplicate at once.
UPDATE cnt_deferrable SET id = id + 1;
SELECT * FROM cnt_deferrable ORDER BY id;
DROP TABLE cnt_deferrable;
