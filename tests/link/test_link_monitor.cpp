// Frame-order checks and the link watchdog (hodyn/link/link_monitor.hpp).
#include <gtest/gtest.h>

#include <hodyn/link/link_monitor.hpp>

namespace {

using hodyn::link::SequenceMonitor;
using hodyn::link::Watchdog;
using Verdict = SequenceMonitor::Verdict;

TEST(SequenceMonitor, AcceptsNewerDropsDuplicatesAndOlder) {
  SequenceMonitor m;
  EXPECT_EQ(m.check(10), Verdict::kAccept);
  EXPECT_EQ(m.check(11), Verdict::kAccept);
  EXPECT_EQ(m.check(11), Verdict::kDuplicate);
  EXPECT_EQ(m.check(9), Verdict::kOutOfOrder);
  EXPECT_EQ(m.check(15), Verdict::kAccept);      // 12, 13, 14 lost
  EXPECT_EQ(m.check(13), Verdict::kOutOfOrder);  // arrived late: reordered
  const auto& c = m.counters();
  EXPECT_EQ(c.accepted, 3u);
  EXPECT_EQ(c.duplicates, 1u);
  EXPECT_EQ(c.out_of_order, 2u);
  EXPECT_EQ(c.gaps, 1u);
  EXPECT_EQ(c.missing, 3u);
  EXPECT_EQ(m.newest(), 15u);
}

TEST(SequenceMonitor, WrapsAroundTwoToTheThirtyTwo) {
  SequenceMonitor m;
  EXPECT_EQ(m.check(0xFFFFFFFEu), Verdict::kAccept);
  EXPECT_EQ(m.check(0xFFFFFFFFu), Verdict::kAccept);
  EXPECT_EQ(m.check(0u), Verdict::kAccept);
  EXPECT_EQ(m.check(2u), Verdict::kAccept);
  EXPECT_EQ(m.check(0xFFFFFFFFu), Verdict::kOutOfOrder);
  EXPECT_EQ(m.counters().missing, 1u);
  m.restart();
  EXPECT_EQ(m.check(7u), Verdict::kAccept);  // anything goes after a restart
}

TEST(Watchdog, EngagesAfterTheTimeoutAndRecoversOnTheNextFrame) {
  Watchdog w(5);
  w.frame_received();
  EXPECT_FALSE(w.tick());
  for (int i = 0; i < 4; ++i) EXPECT_FALSE(w.tick()) << i;  // 4 silent periods
  EXPECT_TRUE(w.tick());                                    // the 5th engages
  EXPECT_TRUE(w.tick());
  EXPECT_EQ(w.engagements(), 1u);
  w.frame_received();
  EXPECT_FALSE(w.tick());
  EXPECT_EQ(w.recoveries(), 1u);
  EXPECT_EQ(w.silent_periods(), 0u);
  // A frame in every period keeps it released.
  for (int i = 0; i < 100; ++i) {
    w.frame_received();
    EXPECT_FALSE(w.tick());
  }
  EXPECT_EQ(w.engagements(), 1u);
}

TEST(Watchdog, EngagesFromStartWithoutAnyFrame) {
  Watchdog w(3);
  EXPECT_FALSE(w.tick());
  EXPECT_FALSE(w.tick());
  EXPECT_TRUE(w.tick());
}

}  // namespace
