--
-- Advisory locks held by one session: counts, levels, key spaces and the
-- warnings of an unlock without a lock (waits between sessions are in
-- tests/planner_session).
--
SELECT pg_advisory_lock(1), pg_advisory_lock(1), pg_advisory_lock_shared(2);
SELECT pg_try_advisory_lock(1), pg_try_advisory_lock(3, 4),
       pg_try_advisory_lock_shared(1);
SELECT pg_advisory_unlock(1), pg_advisory_unlock(1), pg_advisory_unlock(1);
SELECT pg_advisory_unlock(1);
SELECT pg_advisory_unlock(5);
SELECT pg_advisory_unlock_shared(1);
SELECT pg_advisory_unlock_shared(2), pg_advisory_unlock_shared(2);
SELECT pg_advisory_unlock(3, 4);
SELECT pg_advisory_unlock(4, 3);
SELECT pg_advisory_unlock(3::bigint << 32 | 4);
-- Transaction-level locks are not released by pg_advisory_unlock.
BEGIN;
SELECT pg_advisory_xact_lock(10), pg_try_advisory_xact_lock(11),
       pg_try_advisory_xact_lock_shared(12), pg_advisory_xact_lock_shared(13);
SELECT pg_advisory_unlock(10);
COMMIT;
SELECT pg_advisory_unlock(10);
-- Outside a block, the statement's own transaction ends them.
SELECT pg_advisory_xact_lock(20);
SELECT pg_advisory_unlock(20);
SELECT pg_advisory_lock(NULL) IS NULL AS null_key;
SELECT pg_typeof(pg_advisory_lock(9)), pg_typeof(pg_try_advisory_lock(9));
SELECT pg_advisory_unlock_all();
SELECT pg_advisory_unlock(9);
