#include "planner/types.h"

#include <gtest/gtest.h>

namespace kova::planner::types {
namespace {
TEST(Types, Smoke) {
  TypeContext ctx;
  std::string out;
  PgError err;
  ASSERT_TRUE(InputText(oid::kInt4, -1, " 42 ", ctx, &out, &err));
  EXPECT_EQ(out, "42");
}
}  // namespace
}  // namespace kova::planner::types
