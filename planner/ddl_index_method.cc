// CREATE INDEX ... USING method: btree, or hash. A hash index keeps
// PostgreSQL's limits (one column, no uniqueness, no ASC/DESC or NULLS
// FIRST/LAST) and is kept by the store as an ordinary field index; the
// catalog records and shows it as hash. gist, gin, brin and spgist are not
// built (0A000); any other name is not an access method.
#include "planner/ddl.h"
#include "planner/session_util.h"

namespace kova::planner {

bool CheckIndexMethod(const PgQuery__IndexStmt* stmt, const std::string& what,
                      std::string* method, PgError* error) {
  *method = stmt->access_method && *stmt->access_method ? stmt->access_method
                                                        : "btree";
  const std::string& m = *method;
  if (m != "btree" && m != "hash") {
    if (m == "gist" || m == "gin" || m == "brin" || m == "spgist")
      *error = Err("0A000", "index access method \"" + m +
                                "\" is not supported yet" + what);
    else
      *error = Err("42704", "access method \"" + m + "\" does not exist");
    return false;
  }
  if (m != "hash") return true;
  auto unsupported = [&](const char* what_not) {
    *error = Err("0A000", std::string("access method \"hash\" does not "
                                      "support ") +
                              what_not);
    return false;
  };
  if (stmt->unique) return unsupported("unique indexes");
  if (stmt->n_index_params > 1) return unsupported("multicolumn indexes");
  for (size_t i = 0; i < stmt->n_index_params; i++) {
    const PgQuery__IndexElem* ie = stmt->index_params[i]->index_elem;
    if (ie->ordering != PG_QUERY__SORT_BY_DIR__SORTBY_DEFAULT)
      return unsupported("ASC/DESC options");
    if (ie->nulls_ordering != PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_DEFAULT)
      return unsupported("NULLS FIRST/LAST options");
  }
  return true;
}

}  // namespace kova::planner
