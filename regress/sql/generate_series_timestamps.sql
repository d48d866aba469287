-- generate_series over timestamps and intervals (calendar steps, time zones),
-- and WITH ORDINALITY.
select generate_series('2024-01-01'::timestamp, '2024-01-03', '1 day');
select * from generate_series('2024-01-31'::timestamp, '2024-06-01', '1 month') g;
select g::date, count(*) from generate_series(timestamp '2024-03-01', timestamp '2024-03-03 12:00', interval '12 hours') g group by 1 order by 1;
select generate_series('2024-01-01'::date, '2024-01-03'::date, '1 day');
select pg_typeof(g) from generate_series('2024-01-01', '2024-01-02'::timestamp, '1 day') g;
select generate_series('2024-01-03'::timestamptz, '2024-01-01', '-1 day');
set timezone = 'America/New_York';
select * from generate_series('2024-03-09 12:00'::timestamptz, '2024-03-12', '1 day');
select * from generate_series('2024-03-10 00:00'::timestamptz, '2024-03-10 04:00', '1 hour');
reset timezone;
select generate_series('2024-01-01'::timestamp, '2024-01-03', '0 days');
select count(*) from generate_series('2024-01-01'::timestamp, '2023-01-03', '1 day');
select d, x from generate_series('2024-01-01'::timestamp, '2024-01-02', '12 hours') d, generate_series(1,2) x order by 1, 2;
select generate_series('2024-01-01'::timestamp, null, '1 day');
select generate_series(1, 3), generate_series('2024-01-01'::timestamp, '2024-01-02', '1 day');
select * from generate_series('2024-01-01'::timestamp, '2024-01-02', '8 hours') with ordinality;
select * from generate_series(1, 7, 3) with ordinality;
select * from generate_series(5, 1, -2) with ordinality as t(v, n);
select n from generate_series('2024-01-01'::timestamp, '2024-01-02', '8 hours') with ordinality as s(d, n) where d > '2024-01-01';
