--
-- The order of an index's columns (ASC/DESC, NULLS FIRST/LAST) is kept and
-- shown as PostgreSQL shows it; ORDER BY over the index is still right.
--
CREATE TABLE iord (a int, b int, c text);
INSERT INTO iord VALUES (1, NULL, 'x'), (2, 5, 'y'), (NULL, 3, 'z'), (3, 1, NULL),
  (2, NULL, 'w'), (NULL, NULL, 'v');
CREATE INDEX iord_a_desc_b ON iord (a DESC, b ASC NULLS FIRST);
CREATE INDEX iord_b_nulls_last ON iord (b DESC NULLS LAST);
CREATE UNIQUE INDEX iord_c ON iord (c NULLS FIRST);
CREATE INDEX iord_plain ON iord (a, b);
CREATE INDEX iord_explicit ON iord (a ASC NULLS LAST, b DESC NULLS FIRST);
SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'iord' ORDER BY 1;
SELECT c.relname, pg_get_indexdef(c.oid), pg_get_indexdef(c.oid, 1, true),
       pg_get_indexdef(c.oid, 2, false)
  FROM pg_class c WHERE c.relname LIKE 'iord\_%' ORDER BY 1;
SELECT c.relname, i.indoption
  FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
  WHERE c.relname LIKE 'iord\_%' ORDER BY 1;
\d iord
SELECT a, b FROM iord ORDER BY a DESC, b ASC NULLS FIRST;
SELECT a, b FROM iord ORDER BY a DESC, b NULLS FIRST LIMIT 3;
SELECT b FROM iord ORDER BY b DESC NULLS LAST;
SELECT a, b FROM iord WHERE a >= 2 ORDER BY a DESC, b;
DROP TABLE iord;
