#include <gtest/gtest.h>

#include "sql/sql.h"

namespace kova::sql {
namespace {

TEST(ParserTest, ParsesSelect) {
  std::string tree;
  SyntaxError error;
  ASSERT_TRUE(ParseToJson("SELECT 1 AS one", &tree, &error));
  EXPECT_NE(tree.find("\"SelectStmt\""), std::string::npos) << tree;
}

TEST(ParserTest, ReportsSyntaxErrorWithPosition) {
  std::string tree;
  SyntaxError error;
  ASSERT_FALSE(ParseToJson("SELECT FROM WHERE", &tree, &error));
  EXPECT_EQ(error.message, "syntax error at or near \"WHERE\"");
  EXPECT_EQ(error.position, 13);
}

TEST(ParserTest, SplitsScriptsWithTheGrammar) {
  std::vector<std::string> statements;
  SyntaxError error;
  ASSERT_TRUE(SplitStatements(
      "CREATE TABLE t (a text);\n"
      "INSERT INTO t VALUES ('x;y');\n"
      "SELECT $$;$$; -- comment; here\n",
      &statements, &error));
  ASSERT_EQ(statements.size(), 3u);
  EXPECT_EQ(statements[1], "\nINSERT INTO t VALUES ('x;y')");
  EXPECT_EQ(statements[2], "\nSELECT $$;$$");
}

}  // namespace
}  // namespace kova::sql
