// The lock-free submission of core/stream.h, white-box: tasks of the test's own kind are put on
// a stream directly, so that a submitting thread can be held inside its push at a known point.
// Regression for the hang of issue 16: a thread joining a stream that its first thread fed
// without the lock went ahead while that thread's push was still in progress, once a third
// thread had turned the stream shared, and took the same sequence number.
#include <condition_variable>
#include <mutex>
#include <thread>

#include "api/handles.h"
#include "core/fixture.h"
#include "core/stream.h"
#include "core/task.h"

namespace {

using oat::RuntimeTest;

// Opened once; waiters block until then.
class Latch {
 public:
  void open() {
    std::lock_guard lock(mu_);
    open_ = true;
    cv_.notify_all();
  }
  void wait() {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return open_; });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool open_ = false;
};

// Holds its runner in run(), or its submitting thread in queued() (inside the push), until
// `release` opens; `entered` opens when it gets there.
class HeldTask final : public openacl::Task {
 public:
  enum class At { none, run, queued };
  HeldTask(At at, Latch *entered, Latch *release)
      : Task(openacl::TaskKind::kernel), at_(at), entered_(entered), release_(release) {}
  void run(openacl::ExecContext &) override { hold(At::run); }
  void queued(openacl::Stream &) override { hold(At::queued); }
  std::string label() const override { return "held"; }

 private:
  void hold(At where) {
    if (where != at_) return;
    entered_->open();
    release_->wait();
  }
  At at_;
  Latch *entered_, *release_;
};

std::unique_ptr<openacl::Task> plain() {
  return std::make_unique<HeldTask>(HeldTask::At::none, nullptr, nullptr);
}

using Submission = RuntimeTest;

TEST_F(Submission, AThirdThreadWaitsForThePushOfTheFirstInProgress) {
  aclrtStream handle = new_stream();
  std::shared_ptr<openacl::Stream> s = openacl::api::stream_for_submit(handle);
  Latch running, finish_run, in_push, finish_push;
  uint64_t owner_seq = 0, second_seq = 0, third_seq = 0;
  std::atomic<bool> third_done{false};
  std::jthread owner, second, third;
  // Opened whatever the assertions say, before the threads are joined.
  struct Release {
    Latch &a, &b;
    ~Release() {
      a.open();
      b.open();
    }
  } release{finish_push, finish_run};

  // The first thread owns the stream: a task held on the worker keeps it from rest, so the
  // next submission takes the lock-free push, where the thread is held.
  owner = std::jthread([&] {
    s->enqueue(std::make_unique<HeldTask>(HeldTask::At::run, &running, &finish_run));
    running.wait();
    owner_seq =
        s->enqueue(std::make_unique<HeldTask>(HeldTask::At::queued, &in_push, &finish_push));
  });
  in_push.wait();
  // The second thread turns the stream shared and waits for that push.
  second = std::jthread([&] { second_seq = s->enqueue(plain()); });
  ASSERT_TRUE(oat::wait_for([&] { return s->shared(); }));
  // The third one finds it shared already: it must wait for the push too. A runtime that let
  // it go ahead returns here at once, with the sequence number of the task still being
  // pushed; the bound only limits how long the test looks for that.
  third = std::jthread([&] {
    third_seq = s->enqueue(plain());
    third_done.store(true);
  });
  EXPECT_FALSE(oat::wait_for([&] { return third_done.load(); }, std::chrono::milliseconds(300)))
      << "a joining thread queued task " << third_seq << " while the owner's push was in progress";
  finish_push.open();
  owner.join();
  second.join();
  third.join();
  finish_run.open();
  ASSERT_ACL_OK(aclrtSynchronizeStream(handle));
  EXPECT_EQ(owner_seq, 2u);
  EXPECT_GT(second_seq, owner_seq);
  EXPECT_GT(third_seq, owner_seq);
  EXPECT_NE(second_seq, third_seq);
  EXPECT_EQ(s->completed(), 4u);
  s.reset();
  ASSERT_ACL_OK(aclrtDestroyStream(handle));
}

}  // namespace
