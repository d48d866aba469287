// LISTEN / NOTIFY between the sessions of one engine (notify.cc).
#pragma once

#include <deque>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "planner/planner.h"

namespace kova::planner {

// The channels each session listens to and the notifications waiting for
// it. A session's inbox wakes its connection through an eventfd, so that a
// connection waiting for its client's next message sends notifications at
// once, as PostgreSQL does.
class NotificationHub {
 public:
  struct Inbox {
    int pid = 0;
    int event_fd = -1;
    std::mutex mu;                   // guards queue
    std::deque<Notification> queue;  // oldest first
    std::set<std::string> channels;  // guarded by the hub's mutex
  };

  // A new inbox, with its eventfd (null when none can be made).
  std::shared_ptr<Inbox> Open(int pid);
  // Forgets the inbox (its session ends).
  void Close(const std::shared_ptr<Inbox>& inbox);
  void Listen(Inbox* inbox, const std::string& channel);
  void Unlisten(Inbox* inbox, const std::string& channel);  // "" : all
  bool Listening(Inbox* inbox);
  // Delivers each (channel, payload) to every inbox listening to it.
  void Publish(int pid,
               const std::vector<std::pair<std::string, std::string>>& notes);

 private:
  std::mutex mu_;
  std::set<std::shared_ptr<Inbox>> inboxes_;
};

}  // namespace kova::planner
