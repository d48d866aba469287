-- MERGE (PostgreSQL 15): each source row takes the first WHEN clause whose
-- condition holds; the command tag counts the rows changed.
CREATE TABLE mrg_account (id int PRIMARY KEY, balance numeric NOT NULL DEFAULT 0);
CREATE TABLE mrg_txn (id serial PRIMARY KEY, account int, amount numeric);
INSERT INTO mrg_account VALUES (1, 100), (2, 50), (5, 5);
INSERT INTO mrg_txn (account, amount) VALUES (1, 10), (1, -5), (2, 20), (3, 1);

MERGE INTO mrg_account a
  USING (SELECT 3 AS account, 7 AS amount UNION ALL SELECT 1, 1) t
  ON a.id = t.account
  WHEN MATCHED THEN UPDATE SET balance = a.balance + t.amount
  WHEN NOT MATCHED THEN INSERT (id, balance) VALUES (t.account, t.amount);
SELECT * FROM mrg_account ORDER BY id;

-- Conditions, DO NOTHING and DELETE.
MERGE INTO mrg_account a USING mrg_txn t ON a.id = t.account
  WHEN MATCHED AND t.amount < 0 THEN DELETE
  WHEN MATCHED THEN DO NOTHING;
SELECT * FROM mrg_account ORDER BY id;
MERGE INTO mrg_account a
  USING (VALUES (2, 1), (9, 2), (10, NULL), (3, 9)) v(k, x) ON a.id = v.k
  WHEN MATCHED AND v.x > 5 THEN DELETE
  WHEN MATCHED THEN UPDATE SET balance = balance + v.x * 100
  WHEN NOT MATCHED AND v.x IS NULL THEN DO NOTHING
  WHEN NOT MATCHED THEN INSERT VALUES (v.k, DEFAULT);
SELECT * FROM mrg_account ORDER BY id;

-- A table merged with itself reads the rows as they were.
MERGE INTO mrg_account USING mrg_account s ON mrg_account.id = s.id
  WHEN MATCHED THEN UPDATE SET balance = s.balance + 1;
SELECT * FROM mrg_account ORDER BY id;

-- A WITH query as the source; parameters.
WITH s AS (SELECT 2 AS k)
MERGE INTO mrg_account a USING s ON a.id = s.k
  WHEN MATCHED THEN UPDATE SET balance = -1;
PREPARE mrg_upsert(int, numeric) AS
  MERGE INTO mrg_account a USING (SELECT $1 AS k) s ON a.id = s.k
  WHEN MATCHED THEN UPDATE SET balance = $2
  WHEN NOT MATCHED THEN INSERT VALUES (s.k, $2);
EXECUTE mrg_upsert(2, 77);
EXECUTE mrg_upsert(20, 8);
DEALLOCATE mrg_upsert;
SELECT * FROM mrg_account ORDER BY id;

-- Serial keys: a merged insert takes the next value, an explicit one is kept.
CREATE TABLE mrg_item (id serial PRIMARY KEY, name text UNIQUE);
MERGE INTO mrg_item USING (VALUES ('a'), ('b')) s(name) ON mrg_item.name = s.name
  WHEN NOT MATCHED THEN INSERT (name) VALUES (s.name);
MERGE INTO mrg_item USING (VALUES ('a'), ('c')) s(name) ON mrg_item.name = s.name
  WHEN MATCHED THEN UPDATE SET name = mrg_item.name || '!'
  WHEN NOT MATCHED THEN INSERT (name) VALUES (s.name);
MERGE INTO mrg_item USING (VALUES ('d')) s(name) ON false
  WHEN NOT MATCHED THEN INSERT DEFAULT VALUES;
SELECT * FROM mrg_item ORDER BY id;
INSERT INTO mrg_item (name) VALUES ('e') RETURNING id;

-- Errors.
MERGE INTO mrg_account a USING mrg_txn t ON t.account = a.id
  WHEN MATCHED THEN DELETE
  WHEN MATCHED THEN UPDATE SET balance = 1;
MERGE INTO mrg_account a USING (VALUES (20), (20)) s(k) ON a.id = s.k
  WHEN MATCHED THEN UPDATE SET balance = 0;
MERGE INTO mrg_account a USING (VALUES (20), (20)) s(k) ON a.id = s.k
  WHEN MATCHED AND s.k > 5 THEN UPDATE SET balance = 0
  WHEN MATCHED THEN DO NOTHING;
MERGE INTO mrg_account a USING mrg_txn t ON t.account = a.id
  WHEN NOT MATCHED THEN INSERT (id) VALUES (a.id);
MERGE INTO mrg_account a USING mrg_txn t ON t.account = a.id
  WHEN NOT MATCHED THEN INSERT (balance) VALUES (1);
MERGE INTO mrg_account a USING mrg_txn t ON t.account = a.id
  WHEN MATCHED THEN UPDATE SET nope = 1;
MERGE INTO mrg_account a USING mrg_txn t ON t.account = a.id
  WHEN MATCHED THEN UPDATE SET balance = 'x';
MERGE INTO mrg_item USING (VALUES ('zz')) s(name) ON false
  WHEN NOT MATCHED THEN INSERT (id, name) VALUES (1, s.name);
CREATE VIEW mrg_view AS SELECT * FROM mrg_account;
MERGE INTO mrg_view a USING mrg_txn t ON t.account = a.id
  WHEN MATCHED THEN DELETE;
MERGE INTO mrg_account USING mrg_account AS mrg_account ON true
  WHEN MATCHED THEN DELETE;
MERGE INTO mrg_account a USING (VALUES (1)) s(id) ON a.id = s.id
  WHEN MATCHED THEN INSERT VALUES (1);
SELECT * FROM mrg_account ORDER BY id;
DROP VIEW mrg_view;
DROP TABLE mrg_account, mrg_txn, mrg_item;
