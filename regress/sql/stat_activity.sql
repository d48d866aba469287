-- pg_stat_activity: this session's own row, and pg_cancel_backend /
-- pg_terminate_backend on process ids that are not backends. (psql comes
-- over TCP from 127.0.0.1; its port changes from run to run.)
SELECT datname, usename, application_name, state, query, backend_type,
       leader_pid, wait_event_type, wait_event, query_id,
       client_addr, client_port > 0 AS client_port,
       usesysid = (SELECT oid FROM pg_roles WHERE rolname = current_user) AS own_role,
       datid = (SELECT oid FROM pg_database WHERE datname = current_database()) AS own_database,
       backend_start <= query_start AS started_before,
       query_start = statement_timestamp() AS query_start,
       xact_start = now() AS xact_start
FROM pg_stat_activity WHERE pid = pg_backend_pid();
SELECT pg_typeof(pid), pg_typeof(backend_start), pg_typeof(query_id), pg_typeof(datname)
FROM pg_stat_activity WHERE pid = pg_backend_pid();
BEGIN;
SELECT pg_sleep(0.01);
SELECT state, xact_start = now() AS xact_start, xact_start < query_start AS began_before
FROM pg_stat_activity WHERE pid = pg_backend_pid();
COMMIT;
SELECT count(*) FROM pg_stat_activity WHERE pid = pg_backend_pid() AND state = 'active';
SELECT pg_cancel_backend(0);
SELECT pg_terminate_backend(0);
SELECT pg_terminate_backend(pg_backend_pid(), -1);
SELECT pg_cancel_backend(NULL);
