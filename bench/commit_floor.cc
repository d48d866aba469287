// The commit floor: how many durable commits per second one client can get
// from this machine's disk at best. Each commit of a single client must
// reach the disk before the next begins, so no server's one-client
// synchronous_commit=on rate can exceed this loop's: an 8 KB write of a
// preallocated file followed by fdatasync (PostgreSQL's default WAL flush),
// and the same write through O_DSYNC (its open_datasync); the better of the
// two is reported. bench/sql/run runs it beside the INSERT workload.
//
//   commit_floor DIR SECONDS
//
// Prints one line: "<commits per second> <method>".
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

constexpr size_t kWrite = 8192;
constexpr size_t kFileSize = 16 << 20;  // a WAL segment

// Commits per second of `seconds` of writes (each made durable by fdatasync
// or by O_DSYNC) cycling over a preallocated file in `dir`.
double Measure(const std::string& dir, bool dsync, double seconds) {
  std::string path = dir + "/commit_floor.dat";
  int fd = open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
  if (fd < 0) {
    std::perror(path.c_str());
    std::exit(1);
  }
  std::vector<char> zeros(1 << 20, 0);
  for (size_t done = 0; done < kFileSize; done += zeros.size())
    if (write(fd, zeros.data(), zeros.size()) < 0) std::exit(1);
  fsync(fd);
  if (dsync) {
    close(fd);
    fd = open(path.c_str(), O_RDWR | O_DSYNC);
  }
  std::vector<char> page(kWrite, 'x');
  auto start = std::chrono::steady_clock::now();
  long commits = 0;
  off_t offset = 0;
  double elapsed = 0;
  while (elapsed < seconds) {
    if (pwrite(fd, page.data(), kWrite, offset) != static_cast<ssize_t>(kWrite))
      std::exit(1);
    if (!dsync && fdatasync(fd) != 0) std::exit(1);
    commits++;
    offset = (offset + kWrite) % kFileSize;
    elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
  }
  close(fd);
  unlink(path.c_str());
  return commits / elapsed;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: commit_floor DIR SECONDS\n");
    return 2;
  }
  double seconds = std::atof(argv[2]) / 2;
  double fdatasync_rate = Measure(argv[1], false, seconds);
  double dsync_rate = Measure(argv[1], true, seconds);
  if (fdatasync_rate >= dsync_rate)
    std::printf("%.0f fdatasync\n", fdatasync_rate);
  else
    std::printf("%.0f O_DSYNC\n", dsync_rate);
  return 0;
}
