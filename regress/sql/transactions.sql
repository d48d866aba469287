--
-- Transaction blocks: BEGIN, COMMIT, ROLLBACK, failed transactions,
-- savepoints, and the implicit transaction of a multi-statement query
--
BEGIN;
SELECT 1;
COMMIT;
BEGIN TRANSACTION;
ROLLBACK;
START TRANSACTION;
END;
BEGIN WORK;
ABORT;
BEGIN ISOLATION LEVEL SERIALIZABLE;
SHOW transaction_isolation;
COMMIT;
START TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY;
SHOW transaction_isolation;
SHOW transaction_read_only;
COMMIT;
BEGIN;
SET TRANSACTION ISOLATION LEVEL READ COMMITTED;
SHOW transaction_isolation;
COMMIT;
SHOW transaction_read_only;
-- COMMIT, ROLLBACK and END without a transaction: warnings
COMMIT;
ROLLBACK;
END;
ABORT;
COMMIT AND NO CHAIN;
-- BEGIN inside a transaction block: a warning
BEGIN;
BEGIN;
SELECT 'still in the first block';
COMMIT;
COMMIT;
-- SET TRANSACTION outside a block: a warning
SET TRANSACTION ISOLATION LEVEL SERIALIZABLE;
SHOW transaction_isolation;
-- an error inside a block: every command until ROLLBACK gets 25P02
BEGIN;
SELECT 1;
SELECT 1 / 0;
SELECT 2;
SHOW DateStyle;
SET DateStyle = ISO;
SAVEPOINT too_late;
SELECT 3;
ROLLBACK;
SELECT 'after rollback' AS state;
-- COMMIT of a failed transaction rolls back
BEGIN;
SELECT nosuchcolumn;
SELECT 1;
COMMIT;
SELECT 'after commit of a failed block' AS state;
-- END of a failed transaction, too
BEGIN;
SELECT 1 / 0;
END;
-- a syntax error fails the block as well
BEGIN;
SELEC 1;
SELECT 1;
ROLLBACK;
-- ROLLBACK AND CHAIN starts a new block with the same characteristics
BEGIN ISOLATION LEVEL REPEATABLE READ;
ROLLBACK AND CHAIN;
SHOW transaction_isolation;
SELECT 1;
COMMIT AND CHAIN;
SHOW transaction_isolation;
COMMIT;
SHOW transaction_isolation;
-- savepoints
BEGIN;
SAVEPOINT a;
SELECT 1;
SAVEPOINT b;
SELECT 1 / 0;
SELECT 2;
ROLLBACK TO SAVEPOINT b;
SELECT 'recovered at b' AS state;
RELEASE SAVEPOINT b;
ROLLBACK TO a;
SELECT 'recovered at a' AS state;
RELEASE a;
COMMIT;
-- a savepoint name can be reused; ROLLBACK TO goes to the newest one
BEGIN;
SAVEPOINT s;
SAVEPOINT s;
SELECT 1 / 0;
ROLLBACK TO s;
SELECT 'rolled back to the newest s' AS state;
RELEASE s;
RELEASE s;
RELEASE s;
ROLLBACK;
-- ROLLBACK TO keeps the savepoint; RELEASE removes it and those after it
BEGIN;
SAVEPOINT one;
SAVEPOINT two;
SAVEPOINT three;
RELEASE SAVEPOINT two;
ROLLBACK TO SAVEPOINT three;
ROLLBACK TO SAVEPOINT one;
ROLLBACK TO SAVEPOINT one;
SELECT 'one still exists' AS state;
COMMIT;
-- errors in savepoint names
SAVEPOINT outside;
RELEASE SAVEPOINT outside;
ROLLBACK TO SAVEPOINT outside;
BEGIN;
RELEASE SAVEPOINT nosuch;
ROLLBACK;
BEGIN;
ROLLBACK TO SAVEPOINT nosuch;
ROLLBACK;
BEGIN;
SAVEPOINT "Mixed";
ROLLBACK TO SAVEPOINT mixed;
ROLLBACK;
BEGIN;
SAVEPOINT "Mixed";
ROLLBACK TO SAVEPOINT "Mixed";
RELEASE "Mixed";
COMMIT;
BEGIN;
SAVEPOINT 1;
ROLLBACK;
-- a failed block can go back to a savepoint taken before the error, but not
-- to one it tries to take afterwards
BEGIN;
SAVEPOINT ok;
SELECT 1 / 0;
SAVEPOINT after_error;
ROLLBACK TO after_error;
ROLLBACK TO ok;
SELECT 'back at ok' AS state;
COMMIT;
-- several statements in one query message run in one implicit transaction
SELECT 1 AS a \; SELECT 2 AS b;
SELECT 1 AS a \; SELECT 1 / 0 \; SELECT 3 AS c;
SELECT 'the implicit transaction ended' AS state;
BEGIN \; SELECT 'in block' AS state \; COMMIT;
SELECT 1 \; BEGIN \; SELECT 2 AS in_block;
COMMIT;
SELECT 1 \; COMMIT \; SELECT 2;
BEGIN;
SELECT 1 AS a \; SELECT 1 / 0 \; SELECT 3 AS c;
SELECT 'failed block' AS state;
ROLLBACK;
-- SAVEPOINT in an implicit transaction block is an error
SELECT 1 \; SAVEPOINT sp;
SELECT 'done' AS state;
