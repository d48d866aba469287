-- A row compared with a subquery's one row: (a, b) op (SELECT x, y ...).
create table rsc_rows (a int, b text, c int);
insert into rsc_rows values (1, 'x', 10), (2, 'y', 20), (3, null, 30);
select row(1, 'x') = (select a, b from rsc_rows where a = 1);
select (1, 'x') = (select a, b from rsc_rows where a = 1), (1, 'z') <> (select a, b from rsc_rows where a = 1);
select (2, 'a') < (select a, b from rsc_rows where a = 2), (select a, c from rsc_rows where a = 3) >= (3, 30);
select (1, 'x') = (select a, b from rsc_rows where a = 9);
select (3, 'q') = (select a, b from rsc_rows where a = 3);
select a from rsc_rows r where (a, c) = (select a, c from rsc_rows s where s.a = r.a) order by 1;
select (1, 'x') = (select a, b from rsc_rows);
select (1, 'x', 3) = (select a, b from rsc_rows where a = 1);
select (1) = (select a, b from rsc_rows where a = 1);
select (1, 'x') = (select a, c from rsc_rows where a = 1);
drop table rsc_rows;
