// Transaction ids: what txid_current() and pg_current_xact_id() return.
// Kova keeps no per-row transaction ids; a transaction takes one from the
// engine's counter the first time it asks for it, and numbers never repeat
// across restarts (the counter's reserve is kept in a file of the data
// directory, as a counter lease keeps its reservation).
#pragma once

#include <cstdint>
#include <mutex>
#include <string>

namespace kova::planner {

class XidAllocator {
 public:
  // `path`: the file that keeps the reserve ("" keeps none).
  explicit XidAllocator(std::string path);
  XidAllocator(const XidAllocator&) = delete;
  XidAllocator& operator=(const XidAllocator&) = delete;

  // The next transaction id; false when its reserve could not be written.
  bool Next(uint64_t* xid, std::string* error);

 private:
  bool Reserve(uint64_t upto, std::string* error);

  std::mutex mu_;
  std::string path_;
  bool loaded_ = false;
  uint64_t next_ = 0;
  uint64_t reserved_ = 0;  // ids below it may have been handed out
};

}  // namespace kova::planner
