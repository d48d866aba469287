// The planner: binds parsed SQL against the catalog and translates each
// statement into SQLite SQL over collections plus docstore calls.
// Built in the SQL issue; it depends on catalog and sql only.
#pragma once

#include "catalog/catalog.h"
#include "sql/sql.h"
