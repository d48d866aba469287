// Transaction ids never repeat, across restarts included.
#include "planner/xids.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace kova::planner {
namespace {

class XidAllocatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("kova-xids-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
    path_ = (dir_ / "xid").string();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  uint64_t Next(XidAllocator& a) {
    uint64_t xid = 0;
    std::string error;
    EXPECT_TRUE(a.Next(&xid, &error)) << error;
    return xid;
  }
  std::filesystem::path dir_;
  std::string path_;
};

TEST_F(XidAllocatorTest, StartsAtTheFirstNormalIdAndCounts) {
  XidAllocator a(path_);
  EXPECT_EQ(Next(a), 3u);
  EXPECT_EQ(Next(a), 4u);
  EXPECT_EQ(Next(a), 5u);
}

TEST_F(XidAllocatorTest, ARestartContinuesPastEverythingReserved) {
  uint64_t last = 0;
  {
    XidAllocator a(path_);
    for (int i = 0; i < 5000; i++) last = Next(a);  // crosses one reserve
  }
  std::ifstream in(path_);
  uint64_t reserved = 0;
  in >> reserved;
  EXPECT_GT(reserved, last);
  XidAllocator b(path_);
  uint64_t first = Next(b);
  EXPECT_GT(first, last);
  EXPECT_EQ(first, reserved);
}

TEST_F(XidAllocatorTest, AnUnwritableReserveFails) {
  XidAllocator a((dir_ / "missing" / "xid").string());
  uint64_t xid = 0;
  std::string error;
  EXPECT_FALSE(a.Next(&xid, &error));
  EXPECT_NE(error.find("could not write file"), std::string::npos) << error;
}

}  // namespace
}  // namespace kova::planner
