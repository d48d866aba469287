// LISTEN, UNLISTEN, NOTIFY and pg_notify, as PostgreSQL's async.c has
// them: all three statements take effect when the transaction commits
// (a rollback, or a rollback to a savepoint taken before them, drops
// them); a transaction's identical notifications are sent once, in the
// order first sent; every session listening to the channel gets them,
// the notifying one included; a session inside a transaction block gets
// them once the block ends.
#include "planner/notify.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>

#include "planner/session_impl.h"
#include "planner/session_util.h"

namespace kova::planner {

// ---- the hub ----------------------------------------------------------------

std::shared_ptr<NotificationHub::Inbox> NotificationHub::Open(int pid) {
  int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (fd < 0) return nullptr;
  auto inbox = std::make_shared<Inbox>();
  inbox->pid = pid;
  inbox->event_fd = fd;
  std::lock_guard<std::mutex> lock(mu_);
  inboxes_.insert(inbox);
  return inbox;
}

void NotificationHub::Close(const std::shared_ptr<Inbox>& inbox) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    inboxes_.erase(inbox);
  }
  close(inbox->event_fd);
}

void NotificationHub::Listen(Inbox* inbox, const std::string& channel) {
  std::lock_guard<std::mutex> lock(mu_);
  inbox->channels.insert(channel);
}

void NotificationHub::Unlisten(Inbox* inbox, const std::string& channel) {
  std::lock_guard<std::mutex> lock(mu_);
  if (channel.empty())
    inbox->channels.clear();
  else
    inbox->channels.erase(channel);
}

bool NotificationHub::Listening(Inbox* inbox) {
  std::lock_guard<std::mutex> lock(mu_);
  return !inbox->channels.empty();
}

void NotificationHub::Publish(
    int pid, const std::vector<std::pair<std::string, std::string>>& notes) {
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& inbox : inboxes_) {
    bool woke = false;
    for (const auto& [channel, payload] : notes) {
      if (!inbox->channels.count(channel)) continue;
      std::lock_guard<std::mutex> inbox_lock(inbox->mu);
      inbox->queue.push_back(Notification{pid, channel, payload});
      woke = true;
    }
    if (woke) {
      uint64_t one = 1;
      ssize_t ignored = write(inbox->event_fd, &one, sizeof one);
      (void)ignored;
    }
  }
}

// ---- the session's side -----------------------------------------------------

namespace {

constexpr size_t kNameDataLen = 64;         // NAMEDATALEN
constexpr size_t kNotifyPayloadMax = 8000;  // NOTIFY_PAYLOAD_MAX_LENGTH

}  // namespace

bool SessionImpl::QueueNotify(const std::string& channel,
                              const std::string& payload, PgError* error) {
  if (channel.empty()) {
    *error = Err("22023", "channel name cannot be empty");
    return false;
  }
  if (channel.size() >= kNameDataLen) {
    *error = Err("22023", "channel name too long");
    return false;
  }
  if (payload.size() >= kNotifyPayloadMax) {
    *error = Err("22023", "payload string too long");
    return false;
  }
  std::pair<std::string, std::string> note(channel, payload);
  auto& notes = pending_notify_.notes;
  if (std::find(notes.begin(), notes.end(), note) == notes.end())
    notes.push_back(std::move(note));
  return true;
}

ExecuteResult SessionImpl::RunListen(const PgQuery__Node* node) {
  switch (node->node_case) {
    case PG_QUERY__NODE__NODE_LISTEN_STMT:
      pending_notify_.listens.emplace_back('L',
                                           node->listen_stmt->conditionname);
      return Tag("LISTEN");
    case PG_QUERY__NODE__NODE_UNLISTEN_STMT: {
      const char* name = node->unlisten_stmt->conditionname;
      pending_notify_.listens.emplace_back('U', name ? name : "");
      return Tag("UNLISTEN");
    }
    default: {
      const PgQuery__NotifyStmt* n = node->notify_stmt;
      PgError error;
      if (!QueueNotify(n->conditionname, n->payload ? n->payload : "", &error))
        return Fail(error);
      return Tag("NOTIFY");
    }
  }
}

void SessionImpl::EndNotifyTransaction(bool commit) {
  PendingNotify pending = std::move(pending_notify_);
  pending_notify_ = PendingNotify();
  if (!commit) return;
  NotificationHub* hub = EngineNotifications(engine_);
  if (!pending.listens.empty()) {
    if (!inbox_) inbox_ = hub->Open(BackendPid());
    if (inbox_) {
      for (const auto& [action, channel] : pending.listens) {
        if (action == 'L')
          hub->Listen(inbox_.get(), channel);
        else
          hub->Unlisten(inbox_.get(), channel);
      }
    }
  }
  if (!pending.notes.empty()) hub->Publish(BackendPid(), pending.notes);
}

void SessionImpl::NotifySavepoint(const std::string& name, char what) {
  auto& marks = pending_notify_.marks;
  if (what == 'S') {
    marks.push_back(
        {name, pending_notify_.notes.size(), pending_notify_.listens.size()});
    return;
  }
  // The innermost savepoint of that name (RELEASE / ROLLBACK TO checked
  // that it exists).
  auto it = std::find_if(
      marks.rbegin(), marks.rend(),
      [&](const PendingNotify::Mark& m) { return m.name == name; });
  if (it == marks.rend()) return;
  size_t index = marks.size() - 1 - (it - marks.rbegin());
  if (what == 'R') {  // ROLLBACK TO: what came after it goes; it stays
    pending_notify_.notes.resize(marks[index].notes);
    pending_notify_.listens.resize(marks[index].listens);
    marks.resize(index + 1);
  } else {  // RELEASE: it and the savepoints after it end
    marks.resize(index);
  }
}

int SessionImpl::NotificationFd() {
  if (!inbox_ || !EngineNotifications(engine_)->Listening(inbox_.get()))
    return -1;
  return inbox_->event_fd;
}

void SessionImpl::TakeNotifications(std::vector<Notification>* out) {
  out->clear();
  if (!inbox_ || in_block_) return;
  uint64_t count;
  ssize_t ignored = read(inbox_->event_fd, &count, sizeof count);
  (void)ignored;
  std::lock_guard<std::mutex> lock(inbox_->mu);
  out->assign(inbox_->queue.begin(), inbox_->queue.end());
  inbox_->queue.clear();
}

void SessionImpl::CloseInbox() {
  if (!inbox_) return;
  EngineNotifications(engine_)->Close(inbox_);
  inbox_.reset();
}

}  // namespace kova::planner
