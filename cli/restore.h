// `kova restore`: plays a PostgreSQL dump (plain SQL, or a custom,
// directory or tar archive through pg_restore -f -) into a database.
#pragma once

namespace kova::cli {

// argv[0] is "kova", argv[1] "restore". Returns the process exit status.
int Restore(int argc, char** argv);

}  // namespace kova::cli
