// The shape of a simple query's text (planner/query_cache.cc): which
// literals a cached translation may rebind, and which texts are not cached.
// Literal starts must be where PostgreSQL's parser puts an A_Const, and
// nothing inside comments, quoted names or other kinds of string may count.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "planner/query.h"

namespace kova::planner {
namespace {

// "kind@start=value" per literal, or "not cached".
std::vector<std::string> Literals(const std::string& text) {
  QueryShape shape;
  if (!ShapeQuery(text, &shape)) return {"not cached"};
  std::vector<std::string> out;
  for (const auto& l : shape.literals)
    out.push_back(std::string(1, l.kind) + "@" + std::to_string(l.start) + "=" +
                  l.value);
  return out;
}

std::string Key(const std::string& text) {
  QueryShape shape;
  EXPECT_TRUE(ShapeQuery(text, &shape)) << text;
  return shape.key;
}

using V = std::vector<std::string>;

TEST(QueryShapeTest, NumbersByKind) {
  EXPECT_EQ(Literals("SELECT a FROM t WHERE id = 42"), V{"i@27=42"});
  EXPECT_EQ(Literals("SELECT 2147483647, 2147483648, 0009"),
            (V{"i@7=2147483647", "l@19=2147483648", "i@31=0009"}));
  EXPECT_EQ(Literals("SELECT 9223372036854775808, 1.5, .5, 1e3, 2E-2"),
            (V{"n@7=9223372036854775808", "n@28=1.5", "n@33=.5", "n@37=1e3",
               "n@42=2E-2"}));
  // The minus sign is an operator: PostgreSQL folds it into the constant
  // and puts the constant at the sign, which matches no literal here.
  EXPECT_EQ(Literals("SELECT -5"), V{"i@8=5"});
}

TEST(QueryShapeTest, PlainStringsOnly) {
  EXPECT_EQ(Literals("SELECT 'a', 'it''s', ''"),
            (V{"s@7=a", "s@12=it's", "s@21="}));
  // Prefixed strings, type names against the quote and backslashes stay in
  // the key as written.
  EXPECT_EQ(Literals("SELECT E'a\\'b', B'101', X'1F', N'x', U&'d', date'x'"),
            V{});
  EXPECT_EQ(Literals("SELECT 'a\\b'"), V{});
  EXPECT_EQ(Key("SELECT E'a\\'b', 1"), std::string("SELECT E'a\\'b', \0i", 18));
}

TEST(QueryShapeTest, NothingInsideCommentsNamesOrDollarQuotes) {
  EXPECT_EQ(Literals("SELECT 1 -- 2 '3'\n, /* 4 /* 5 */ '6' */ 7"),
            (V{"i@7=1", "i@40=7"}));
  EXPECT_EQ(Literals("SELECT \"1\"\"'2'\", $$ 3 '4' $$, $q$ 5 $$ $q$, $1"),
            V{});
  EXPECT_EQ(Literals("SELECT a1, b$2, x.y FROM t2"), V{});
}

TEST(QueryShapeTest, TextsThatAreNotCached) {
  EXPECT_EQ(Literals("SELECT 1; SELECT 2"), V{"not cached"});
  EXPECT_EQ(Literals("SELECT 'a'\n'b'"), V{"not cached"});  // one literal
  EXPECT_EQ(Literals("SELECT 'abc"), V{"not cached"});
  EXPECT_EQ(Literals("SELECT /* open"), V{"not cached"});
  EXPECT_EQ(Literals("SELECT $$ open"), V{"not cached"});
  EXPECT_EQ(Literals("SELECT 12abc"), V{"not cached"});
  EXPECT_EQ(Literals("SELECT 1.2.3"), V{"not cached"});
  // A final semicolon, blanks and comments after it are one statement.
  EXPECT_EQ(Literals("SELECT 1; -- done\n"), V{"i@7=1"});
}

TEST(QueryShapeTest, SameShapeOnlyForOtherValuesOfTheSameKinds) {
  EXPECT_EQ(Key("SELECT v FROM t WHERE id = 1"),
            Key("SELECT v FROM t WHERE id = 12345"));
  EXPECT_NE(Key("SELECT v FROM t WHERE id = 1"),
            Key("SELECT v FROM t WHERE id = 3000000000"));
  EXPECT_NE(Key("SELECT v FROM t WHERE id = 1"),
            Key("SELECT v FROM t WHERE id = '1'"));
  EXPECT_NE(Key("SELECT v FROM t WHERE id = 1"),
            Key("SELECT v FROM t WHERE id = 1.0"));
  EXPECT_NE(Key("SELECT v FROM t WHERE id = 1"),
            Key("SELECT v FROM t WHERE id =  1"));
  EXPECT_EQ(Key("SELECT v FROM t WHERE v = 'a'"),
            Key("SELECT v FROM t WHERE v = 'b''c'"));
}

}  // namespace
}  // namespace kova::planner
