#include "planner/stack_depth.h"

#include <pthread.h>

#include <cstdint>

namespace kova::planner {
namespace {

// Stack kept free below the deepest check.
constexpr uintptr_t kStackReserve = 1 << 20;

// The lowest address the calling thread's checks accept (0: unknown, no
// check).
uintptr_t StackFloor() {
  thread_local uintptr_t floor = [] {
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return uintptr_t{0};
    void* low = nullptr;
    size_t size = 0;
    int rc = pthread_attr_getstack(&attr, &low, &size);
    pthread_attr_destroy(&attr);
    if (rc != 0 || size <= 2 * kStackReserve) return uintptr_t{0};
    return reinterpret_cast<uintptr_t>(low) + kStackReserve;
  }();
  return floor;
}

}  // namespace

bool StackDepthExceeded() {
  char here;
  uintptr_t floor = StackFloor();
  return floor != 0 && reinterpret_cast<uintptr_t>(&here) < floor;
}

PgError StackDepthError() {
  PgError error;
  error.sqlstate = "54001";
  error.message = "stack depth limit exceeded";
  error.hint = "The statement nests expressions or subqueries too deeply.";
  return error;
}

}  // namespace kova::planner
