--
-- COPY table FROM STDIN and COPY table TO STDOUT
--
CREATE TABLE copy_t (id serial PRIMARY KEY, a int NOT NULL, b text);
-- text format with a column list: id comes from the counter
COPY copy_t (a, b) FROM STDIN;
1	one
2	two
3	\N
\.
SELECT * FROM copy_t ORDER BY id;
-- every column
CREATE TABLE copy_all (x int, y text, z numeric);
COPY copy_all FROM STDIN;
10	ten	1.5
11	\N	-2
\.
SELECT * FROM copy_all ORDER BY x;
-- backslash escapes
COPY copy_t (a, b) FROM STDIN;
20	tab\there
21	new\nline
22	back\\slash
23	\b\f\r\v
24	octal \101\102\060 hex \x41\x4a\x4 \xg
25	other \q\Z\,
26	\\N is not null
27	line continues\
here
\.
SELECT a, b, length(b) FROM copy_t WHERE a >= 20 ORDER BY a;
-- options: DELIMITER and NULL
COPY copy_t (a, b) FROM STDIN WITH (DELIMITER '|', NULL 'nil');
30|nil
31|\N
32|a\|b
\.
COPY copy_t (a, b) FROM STDIN DELIMITER ',';
33,x
\.
SELECT a, b, b IS NULL AS isnull FROM copy_t WHERE a >= 30 ORDER BY a;
-- an empty COPY
COPY copy_t (a, b) FROM STDIN;
\.
-- CSV
CREATE TABLE copy_csv (a int, b text, c text);
COPY copy_csv FROM STDIN (FORMAT csv);
1,plain,"quoted"
2,"has,comma","has ""quote"""
3,"multi
line",
4,,""
5, lead ,trail 
6,\N,\.
\.
SELECT a, b, c, b IS NULL AS b_null, c IS NULL AS c_null FROM copy_csv ORDER BY a;
TRUNCATE copy_csv;
COPY copy_csv FROM STDIN WITH (FORMAT csv, HEADER, NULL 'NULL', QUOTE '''', ESCAPE '\');
a,b,c
1,'it\'s',NULL
2,'NULL',
\.
SELECT a, b, c, b IS NULL AS b_null, c IS NULL AS c_null FROM copy_csv ORDER BY a;
TRUNCATE copy_csv;
COPY copy_csv FROM STDIN (FORMAT csv, FORCE_NOT_NULL (b), FORCE_NULL (c));
1,,""
2,"",x
\.
SELECT a, b, c, b IS NULL AS b_null, c IS NULL AS c_null FROM copy_csv ORDER BY a;
TRUNCATE copy_csv;
COPY copy_csv FROM STDIN (FORMAT csv, HEADER match);
a,b,c
1,x,y
\.
COPY copy_csv (c, a) FROM STDIN (FORMAT csv, HEADER match, DELIMITER ';');
c;a
z;2
\.
COPY copy_csv FROM STDIN (FORMAT text, HEADER true);
anything	at	all
3	x	y
\.
SELECT * FROM copy_csv ORDER BY a;
-- data errors: nothing of a failing COPY stays
COPY copy_t (a, b) FROM STDIN;
40	fine
x	bad
\.
COPY copy_t (a, b) FROM STDIN;
41	fine
\N	null a
\.
COPY copy_t (a, b) FROM STDIN;
42	one	two
\.
COPY copy_t (a, b) FROM STDIN;
43
\.
COPY copy_t (id, a, b) FROM STDIN;
100	44	fine
1	45	duplicate
\.
COPY copy_t (a, b) FROM STDIN;
99999999999	too big
\.
COPY copy_csv FROM STDIN (FORMAT csv);
1,"unterminated
\.
COPY copy_csv FROM STDIN (FORMAT csv, HEADER match);
a,b
\.
COPY copy_csv FROM STDIN (FORMAT csv, HEADER match);
a,x,c
\.
COPY copy_csv FROM STDIN (FORMAT csv, HEADER match);
a,,c
\.
SELECT count(*) FROM copy_t WHERE a >= 40;
-- the counter moved for every row read, as nextval did
COPY copy_t (a, b) FROM STDIN;
50	after errors
\.
SELECT * FROM copy_t WHERE a = 50;
-- a long value is cut in the context line
CREATE TABLE copy_v (v varchar(5));
COPY copy_v FROM STDIN;
abc
this value is far too long for the column and goes on and on and on so that the context line has to cut it off somewhere
\.
-- errors before any data is read
COPY nosuch FROM STDIN;
COPY copy_t (nosuch) FROM STDIN;
COPY copy_t (a, a) FROM STDIN;
COPY copy_csv FROM STDIN (FORMAT csv, FORCE_NULL (nosuch));
COPY copy_csv (a) FROM STDIN (FORMAT csv, FORCE_NOT_NULL (b));
COPY copy_csv FROM STDIN (FORCE_NULL (b));
COPY copy_csv FROM STDIN (FORMAT csv, FORCE_QUOTE (b));
COPY copy_csv TO STDOUT (HEADER match);
COPY copy_csv FROM STDIN (HEADER 2);
COPY copy_csv FROM STDIN (ENCODING 'nosuch');
COPY copy_csv FROM STDIN (DELIMITER ',', NULL 'a,b');
COPY copy_csv FROM STDIN (FORMAT csv, NULL '"');
COPY copy_csv FROM STDIN (FORMAT binary, NULL 'x');
COPY copy_csv FROM STDIN (FREEZE maybe);
-- a view takes no COPY
CREATE VIEW copy_view AS SELECT a, b FROM copy_csv;
COPY copy_view FROM STDIN;
1	x
\.
COPY copy_view TO STDOUT;
-- inside a transaction block
BEGIN;
COPY copy_csv FROM STDIN (FORMAT csv);
7,in,block
\.
SELECT count(*) FROM copy_csv;
ROLLBACK;
SELECT count(*) FROM copy_csv;
BEGIN;
COPY copy_csv FROM STDIN (FORMAT csv);
8,bad,row,x
\.
SELECT 1;
ROLLBACK;
-- types through COPY
CREATE TABLE copy_types (i int2, n numeric(6,2), f float8, bo bool, d date, ts timestamp, j jsonb, v varchar(4), ch char(3));
COPY copy_types FROM STDIN;
1	3.14159	1e3	t	2024-02-29	2024-01-02 03:04:05.678	{"b": 1, "a": [1, 2]}	abcd	x
-2	\N	-0	off	epoch	infinity	null	\N	xyz
\.
SELECT * FROM copy_types ORDER BY i;
COPY copy_types (bo) FROM STDIN;
maybe
\.
COPY copy_types (d) FROM STDIN;
2023-02-30
\.
-- identity and defaults
CREATE TABLE copy_id (id int GENERATED ALWAYS AS IDENTITY, v text DEFAULT 'dflt', w int);
COPY copy_id (w) FROM STDIN;
1
2
\.
COPY copy_id (id, w) FROM STDIN;
7	3
\.
SELECT * FROM copy_id ORDER BY w;
-- COPY table TO STDOUT
COPY copy_t TO STDOUT;
COPY copy_t (b, id) TO STDOUT WITH (FORMAT csv, HEADER);
COPY copy_csv TO STDOUT (FORMAT csv, FORCE_QUOTE (b), NULL '<null>');
COPY copy_csv TO STDOUT (FORMAT csv, FORCE_QUOTE *, DELIMITER ';', HEADER);
COPY copy_csv (a) TO STDOUT (FORMAT csv, FORCE_QUOTE (b));
COPY copy_csv TO STDOUT (FORMAT csv, FORCE_QUOTE (nosuch));
COPY copy_csv (nosuch) TO STDOUT;
COPY copy_types TO STDOUT;
COPY (SELECT a, b FROM copy_t WHERE a < 3 ORDER BY a) TO STDOUT;
COPY public.copy_t (a) TO STDOUT (DELIMITER '|', NULL '');
COPY copy_t TO STDOUT (FORMAT csv, FORCE_NOT_NULL (a));
-- round trip of special characters
CREATE TABLE copy_rt (s text);
INSERT INTO copy_rt VALUES (E'tab\tnl\ncr\rbs\\end'), ('\N'), (NULL), ('');
COPY copy_rt TO STDOUT;
COPY copy_rt TO STDOUT (FORMAT csv);
DROP VIEW copy_view;
DROP TABLE copy_all, copy_t, copy_csv, copy_v, copy_types, copy_id, copy_rt;
