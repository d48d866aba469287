--
-- UPDATE and DELETE: SET, FROM, USING, RETURNING, DEFAULT, and their errors
--
-- (tables of this file are named ud_*: tests of a group share the database)
--
CREATE TABLE ud_t (
    id integer PRIMARY KEY,
    name text NOT NULL,
    qty integer DEFAULT 7 CHECK (qty >= 0),
    price numeric(6,2),
    note text DEFAULT 'none'
);
INSERT INTO ud_t VALUES
    (1, 'a', 1, 1.00, 'x'),
    (2, 'b', 2, 2.50, NULL),
    (3, 'c', 3, NULL, 'y'),
    (4, 'd', 4, 4.25, 'z'),
    (5, 'e', 5, 5.75, NULL);
-- plain UPDATE
UPDATE ud_t SET qty = qty + 10 WHERE id = 1;
UPDATE ud_t SET qty = qty * 2, price = price + 1 WHERE id IN (2, 3);
UPDATE ud_t SET note = 'none left' WHERE note IS NULL;
UPDATE ud_t SET name = upper(name) WHERE false;
SELECT * FROM ud_t ORDER BY id;
-- SET col = DEFAULT, and row syntax
UPDATE ud_t SET qty = DEFAULT, note = DEFAULT WHERE id = 4;
UPDATE ud_t SET price = DEFAULT WHERE id = 5;
UPDATE ud_t SET (qty, note) = (0, 'row') WHERE id = 3;
UPDATE ud_t SET (qty, note) = (DEFAULT, 'row2') WHERE id = 2;
SELECT * FROM ud_t ORDER BY id;
-- RETURNING
UPDATE ud_t SET qty = qty + 1 WHERE id <= 2 RETURNING *;
UPDATE ud_t SET price = 9.999 WHERE id = 1 RETURNING id, price, price * 2 AS twice;
UPDATE ud_t AS u SET note = 'aliased' WHERE u.id = 5 RETURNING u.id, u.note;
UPDATE ud_t SET qty = 1 WHERE id = 42 RETURNING *;
-- UPDATE ... FROM
CREATE TABLE ud_delta (id integer, add_qty integer, label text);
INSERT INTO ud_delta VALUES (1, 100, 'one'), (3, 300, 'three'), (9, 900, 'nine');
UPDATE ud_t SET qty = ud_t.qty + d.add_qty, note = d.label FROM ud_delta d WHERE d.id = ud_t.id;
SELECT * FROM ud_t ORDER BY id;
UPDATE ud_t t SET name = t.name || d.label FROM ud_delta d WHERE d.id = t.id AND d.add_qty > 200 RETURNING t.id, t.name, d.add_qty;
UPDATE ud_t SET qty = 0 FROM ud_delta WHERE ud_delta.id = ud_t.id AND ud_delta.label = 'nobody';
-- UPDATE with a subquery
UPDATE ud_t SET price = (SELECT max(add_qty) FROM ud_delta) WHERE id = 2 RETURNING id, price;
UPDATE ud_t SET note = 'in sub' WHERE id IN (SELECT id FROM ud_delta WHERE add_qty < 200) RETURNING id, note;
-- UPDATE errors
UPDATE ud_t SET nosuch = 1;
UPDATE ud_t SET qty = 1 WHERE nosuch = 1;
UPDATE ud_nosuch SET qty = 1;
UPDATE ud_t SET name = NULL WHERE id = 1;
UPDATE ud_t SET id = 2 WHERE id = 1;
UPDATE ud_t SET qty = -5 WHERE id = 1;
UPDATE ud_t SET qty = 'abc';
UPDATE ud_t SET qty = 3000000000;
UPDATE ud_t SET qty = true;
UPDATE ud_t SET price = 123456.0 WHERE id = 1;
UPDATE ud_t SET qty = 1, qty = 2;
UPDATE ud_t SET ud_t.qty = 1;
UPDATE ud_t SET qty = 1 RETURNING nosuch;
UPDATE ud_t SET (qty, note) = (1);
UPDATE ud_t SET price = (SELECT add_qty FROM ud_delta);
-- an UPDATE that fails on a later row changes nothing
UPDATE ud_t SET qty = 100 / (id - 3) + 100;
UPDATE ud_t SET id = 3 WHERE id >= 2;
SELECT * FROM ud_t ORDER BY id;
-- DELETE
DELETE FROM ud_t WHERE id = 5;
DELETE FROM ud_t WHERE id = 42;
DELETE FROM ud_t WHERE qty > 1000 RETURNING *;
DELETE FROM ud_t WHERE id = 4 RETURNING id, name || '!' AS shout;
SELECT * FROM ud_t ORDER BY id;
-- DELETE ... USING
INSERT INTO ud_t (id, name) VALUES (9, 'nine'), (10, 'ten');
DELETE FROM ud_t USING ud_delta WHERE ud_t.id = ud_delta.id AND ud_delta.label = 'nine';
DELETE FROM ud_t t USING ud_delta d WHERE t.id = d.id AND d.add_qty = 300 RETURNING t.id, d.label;
SELECT * FROM ud_t ORDER BY id;
-- DELETE with a subquery
DELETE FROM ud_t WHERE id NOT IN (SELECT id FROM ud_delta) RETURNING id;
DELETE FROM ud_t WHERE EXISTS (SELECT 1 FROM ud_delta d WHERE d.id = ud_t.id) RETURNING id;
SELECT count(*) FROM ud_t;
-- DELETE errors
DELETE FROM ud_nosuch;
DELETE FROM ud_t WHERE nosuch = 1;
DELETE FROM ud_t WHERE id = 'abc';
DELETE FROM ud_t WHERE 1;
DELETE FROM ud_t RETURNING nosuch;
DELETE FROM ud_t t WHERE ud_t.id = 1;
-- DELETE without WHERE, and on an empty table
INSERT INTO ud_t (id, name) VALUES (1, 'a'), (2, 'b');
DELETE FROM ud_t;
DELETE FROM ud_t RETURNING *;
SELECT * FROM ud_t;
-- serial columns: UPDATE ... SET id = DEFAULT takes the next value
CREATE TABLE ud_s (id serial PRIMARY KEY, v text);
INSERT INTO ud_s (v) VALUES ('a'), ('b');
UPDATE ud_s SET id = DEFAULT WHERE v = 'a' RETURNING *;
INSERT INTO ud_s (v) VALUES ('c') RETURNING *;
DELETE FROM ud_s WHERE id = 4 RETURNING *;
INSERT INTO ud_s (v) VALUES ('d') RETURNING *;
-- GENERATED ALWAYS identity: only DEFAULT is allowed
CREATE TABLE ud_ida (id integer GENERATED ALWAYS AS IDENTITY, v text);
INSERT INTO ud_ida (v) VALUES ('a');
UPDATE ud_ida SET id = 5;
UPDATE ud_ida SET id = DEFAULT RETURNING *;
DROP TABLE ud_t, ud_delta, ud_s, ud_ida;
-- UPDATE ... SET (columns) = (sub-select)
create table upd_m (id int primary key, a int, b text);
insert into upd_m values (1, 1, 'x'), (2, 2, 'y'), (3, 3, 'z');
update upd_m set (a, b) = (a + 10, b || '!') where id = 1;
update upd_m set (a, b) = (select 5, 'q') where id = 2;
update upd_m set (b, a) = (select m2.b, m2.a from upd_m m2 where m2.id = upd_m.id - 1) where id = 3;
update upd_m set (a, b) = (select 1) where id = 1;
update upd_m set (a, b) = (select 1, 'a', 3) where id = 1;
update upd_m set (a) = (select 7 where false) where id = 1;
update upd_m set (a, b) = (select id, b from upd_m) where id = 1;
select * from upd_m order by id;
DROP TABLE upd_m;
-- RETURNING other.* and * with FROM / USING items: their columns too
create table ret_t (a int, b text);
insert into ret_t values (1, 'x'), (2, 'y');
update ret_t set a = t2.a from ret_t t2 where t2.a = ret_t.a + 1 returning ret_t.*, t2.*;
select * from ret_t order by a, b;
create table ret_u (a int, b text);
insert into ret_u values (1, 'x'), (2, 'y');
create table ret_w (a int, b text);
insert into ret_w values (2, 'z');
update ret_u set a = ret_w.a from ret_w where ret_w.a = ret_u.a + 1 returning ret_u.*, ret_w.*;
create table ret_v1 (id int, n text);
insert into ret_v1 values (1, 'a'), (2, 'b');
create table ret_v2 (id int, m text, k int);
insert into ret_v2 values (1, 'p', 7), (2, 'q', 8);
delete from ret_v1 using ret_v2 where ret_v1.id = ret_v2.id and ret_v2.k = 7 returning ret_v2.*, ret_v1.*, *;
update ret_v1 set n = 'c' from ret_v2 where ret_v1.id = ret_v2.id returning *, ret_v2.*;
update ret_v1 set n = 'd' from ret_v2 x where ret_v1.id = x.id returning x.*;
update ret_v1 set n = 'e' from ret_v2 x where ret_v1.id = x.id returning ret_v2.*;
update ret_v1 set n = 'f' from ret_v2 where ret_v1.id = ret_v2.id returning nosuch.*;
drop table ret_t, ret_u, ret_w, ret_v1, ret_v2;
