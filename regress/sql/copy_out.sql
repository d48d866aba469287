--
-- COPY (query) TO STDOUT in text and CSV formats
--
-- text format: tab-separated, \N for NULL, special characters escaped
COPY (SELECT 1 AS a, 'one' AS b, NULL AS c) TO STDOUT;
COPY (VALUES (1, 'x'), (2, NULL), (NULL, 'z')) TO STDOUT;
COPY (SELECT E'tab\there', E'new\nline', E'carriage\rreturn', E'back\\slash', 'plain') TO STDOUT;
COPY (SELECT E'\b\f' || chr(11), E'\\N', '\N', '', ' ') TO STDOUT;
COPY (SELECT 'ünïcödé €', '日本語') TO STDOUT;
COPY (SELECT true, false, 1.50, 2147483648, 0.1::float8, -0.0::float8, 'NaN'::float8) TO STDOUT;
COPY (SELECT 'x'::varchar(3), 'ab'::char(4), 12.5::numeric(5,2)) TO STDOUT;
COPY (SELECT 1 WHERE false) TO STDOUT;
-- text format options
COPY (SELECT 1, NULL, 'a|b') TO STDOUT WITH (DELIMITER '|');
COPY (SELECT 1, NULL, 'a') TO STDOUT WITH (NULL 'NULL');
COPY (SELECT 1, NULL, E'a\tb') TO STDOUT (FORMAT text, DELIMITER ',', NULL '');
COPY (SELECT 1 AS a, 2 AS b) TO STDOUT WITH DELIMITER ';';
COPY (SELECT 1 AS a, 2 AS b) TO STDOUT (HEADER);
-- CSV
COPY (SELECT 1 AS id, 'one' AS name, NULL AS missing) TO STDOUT WITH (FORMAT csv);
COPY (SELECT 1 AS id, 'one' AS name, NULL AS missing) TO STDOUT WITH (FORMAT csv, HEADER);
COPY (SELECT 1 AS id, 'one' AS name) TO STDOUT WITH CSV HEADER;
COPY (SELECT 'has,comma', 'has "quote"', E'has\nnewline', E'has\ttab', '', NULL, ' lead', 'trail ') TO STDOUT (FORMAT csv);
COPY (SELECT E'back\\slash', '\N', 'NULL', '"') TO STDOUT (FORMAT csv);
COPY (SELECT 'a', NULL, '') TO STDOUT (FORMAT csv, NULL 'NULL');
COPY (SELECT 'a;b', 'c') TO STDOUT (FORMAT csv, DELIMITER ';');
COPY (SELECT 'q', 'x''y', 'has|bar') TO STDOUT (FORMAT csv, QUOTE '''', DELIMITER '|');
COPY (SELECT 'a"b', 'c') TO STDOUT (FORMAT csv, ESCAPE '\');
COPY (SELECT 'a', 'b', NULL) TO STDOUT (FORMAT csv, FORCE_QUOTE *);
COPY (SELECT 1 AS a, 'b' AS b, NULL AS c) TO STDOUT (FORMAT csv, FORCE_QUOTE (b), HEADER);
COPY (SELECT 'x' AS "Col ""1""", 'y' AS "b,c") TO STDOUT (FORMAT csv, HEADER true);
COPY (VALUES (1, 'one'), (2, 'two'), (3, NULL)) TO STDOUT (FORMAT csv, HEADER);
COPY (SELECT 1 AS a WHERE false) TO STDOUT (FORMAT csv, HEADER);
-- old-style syntax
COPY (SELECT 1, 'x', NULL) TO STDOUT CSV;
COPY (SELECT 1, 'x', NULL) TO STDOUT CSV HEADER QUOTE AS '"' FORCE QUOTE *;
-- errors
COPY (SELECT 1) TO STDOUT (FORMAT nosuchformat);
COPY (SELECT 1) TO STDOUT (DELIMITER 'ab');
COPY (SELECT 1) TO STDOUT (FORMAT csv, DELIMITER '"');
COPY (SELECT 1) TO STDOUT (DELIMITER '\');
COPY (SELECT 1) TO STDOUT (QUOTE '"');
COPY (SELECT 1) TO STDOUT (FORMAT csv, QUOTE 'ab');
COPY (SELECT 1) TO STDOUT (FORMAT csv, NULL E'\n');
COPY (SELECT 1) TO STDOUT (FORMAT csv, FORCE_QUOTE (nosuchcolumn));
COPY (SELECT 1) TO STDOUT (FORMAT csv, FORCE_NOT_NULL (a));
COPY (SELECT 1) TO STDOUT (FORMAT csv, FORMAT text);
COPY (SELECT 1) TO STDOUT (NOSUCHOPTION 1);
COPY (SELECT 1 / 0) TO STDOUT;
COPY (SELECT nosuchcolumn) TO STDOUT;
COPY (SELECT * FROM nosuchtable) TO STDOUT;
COPY (SELEC 1) TO STDOUT;
COPY nosuchtable TO STDOUT;
-- COPY inside a transaction block, and in a failed one
BEGIN;
COPY (SELECT 'in block') TO STDOUT;
SELECT 1 / 0;
COPY (SELECT 'not run') TO STDOUT;
ROLLBACK;
COPY (SELECT 'after rollback') TO STDOUT (FORMAT csv);
