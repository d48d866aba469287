// A guard for the planner's recursion over parse trees (PostgreSQL's
// check_stack_depth): deep nesting ends in 54001 instead of overflowing the
// thread's stack, which would take the whole server down.
#pragma once

#include "planner/planner.h"

namespace kova::planner {

// Whether the calling thread has less than a safe reserve of stack left
// (the reserve covers SQLite, libpg_query and the non-recursive work below
// the deepest check).
bool StackDepthExceeded();

// PostgreSQL's error for it.
PgError StackDepthError();

}  // namespace kova::planner
