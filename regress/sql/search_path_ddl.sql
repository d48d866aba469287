--
-- TRUNCATE, CREATE INDEX and VACUUM / ANALYZE find tables through the
-- search_path (pg_temp included), as every other statement does
--
CREATE SCHEMA other;
CREATE TABLE public.t (x int); INSERT INTO public.t VALUES (1);
CREATE TABLE other.t (x int); INSERT INTO other.t VALUES (2);
SET search_path = other;
TRUNCATE t;
SELECT (SELECT count(*) FROM public.t) AS pub, (SELECT count(*) FROM other.t) AS oth;
CREATE INDEX t_x_idx ON t (x);
SELECT schemaname, tablename, indexname FROM pg_indexes WHERE indexname = 't_x_idx';
VACUUM ANALYZE t;
CREATE TEMP TABLE tt (x int); INSERT INTO tt VALUES (1);
TRUNCATE tt;
SELECT count(*) FROM tt;
CREATE INDEX ON tt (x);
SELECT count(*) FROM pg_indexes WHERE tablename = 'tt';
ANALYZE tt;
RESET search_path;
TRUNCATE t;
SELECT count(*) FROM public.t;
DROP SCHEMA other CASCADE;
DROP TABLE t;
