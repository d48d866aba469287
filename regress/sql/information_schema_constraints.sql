-- information_schema views of schemas and constraints. NOT NULL columns
-- show as CHECK constraints named <schema oid>_<table oid>_<attnum>_not_null;
-- the OIDs differ between servers, so they are masked here.
CREATE SCHEMA isc;
CREATE TABLE isc_parent (id int PRIMARY KEY, code text UNIQUE, a int, b int,
                         UNIQUE NULLS NOT DISTINCT (a, b));
CREATE TABLE isc.child (id serial PRIMARY KEY,
  p int REFERENCES isc_parent ON DELETE CASCADE DEFERRABLE, x int, y int,
  CHECK (id > 0),
  CONSTRAINT child_xy FOREIGN KEY (x, y) REFERENCES isc_parent (b, a)
    ON UPDATE SET NULL INITIALLY DEFERRED);
CREATE TABLE isc_nn ("V" text NOT NULL, w int CHECK (w BETWEEN 1 AND 5 OR w IS NULL));

SELECT * FROM information_schema.schemata
  WHERE schema_name IN ('public', 'isc', 'pg_catalog', 'information_schema', 'pg_toast')
  ORDER BY schema_name;
SELECT constraint_catalog, constraint_schema,
       regexp_replace(constraint_name, '^[0-9]+_[0-9]+_', 'N_N_') AS constraint_name,
       table_catalog, table_schema, table_name, constraint_type, is_deferrable,
       initially_deferred, enforced, nulls_distinct
  FROM information_schema.table_constraints
  WHERE table_name IN ('isc_parent', 'child', 'isc_nn')
  ORDER BY table_name, constraint_type, 3;
SELECT * FROM information_schema.key_column_usage
  WHERE table_name IN ('isc_parent', 'child', 'isc_nn')
  ORDER BY table_name, constraint_name, ordinal_position;
SELECT * FROM information_schema.referential_constraints
  WHERE constraint_schema = 'isc' ORDER BY constraint_name;
SELECT * FROM information_schema.constraint_column_usage
  WHERE table_name IN ('isc_parent', 'child', 'isc_nn')
  ORDER BY table_name, constraint_name, column_name;
SELECT c.constraint_schema,
       regexp_replace(c.constraint_name, '^[0-9]+_[0-9]+_', 'N_N_') AS constraint_name,
       c.check_clause
  FROM information_schema.check_constraints c
  JOIN information_schema.table_constraints t USING (constraint_schema, constraint_name)
  WHERE t.table_name IN ('isc_parent', 'child', 'isc_nn')
  ORDER BY t.table_name, 2;
-- What an ORM asks to find a table's primary key and foreign keys.
SELECT kcu.column_name
  FROM information_schema.table_constraints tc
  JOIN information_schema.key_column_usage kcu
    USING (constraint_schema, constraint_name)
  WHERE tc.table_name = 'isc_parent' AND tc.constraint_type = 'PRIMARY KEY';
SELECT tc.constraint_name, kcu.column_name, ccu.table_name AS foreign_table,
       ccu.column_name AS foreign_column
  FROM information_schema.table_constraints tc
  JOIN information_schema.key_column_usage kcu
    ON tc.constraint_name = kcu.constraint_name AND tc.table_schema = kcu.table_schema
  JOIN information_schema.constraint_column_usage ccu
    ON ccu.constraint_name = tc.constraint_name AND ccu.constraint_schema = tc.table_schema
  WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_name = 'child'
  ORDER BY 1, 2, 4;
DROP TABLE isc.child, isc_parent, isc_nn;
DROP SCHEMA isc;
