// UdpTransport: loopback round trip, timeouts, bind conflicts, argument checks,
// and no heap use in send/receive after open().
#include <gtest/gtest.h>

#include <array>
#include <cerrno>
#include <cstdint>

#include "hodyn/posix/udp_transport.hpp"
#include "support/heap_counter.hpp"

namespace {

using hodyn::Status;
using hodyn::posix::UdpTransport;

// Two transports on 127.0.0.1 with ephemeral ports, each the other's peer.
void open_pair(UdpTransport& a, UdpTransport& b) {
  ASSERT_EQ(a.open(0, "127.0.0.1", 0, "127.0.0.1"), Status::kOk);
  ASSERT_EQ(b.open(0, "127.0.0.1", a.local_port(), "127.0.0.1"), Status::kOk);
  ASSERT_EQ(a.set_remote("127.0.0.1", b.local_port()), Status::kOk);
  ASSERT_NE(a.local_port(), 0);
  ASSERT_NE(b.local_port(), 0);
}

TEST(UdpTransport, LoopbackRoundTripKeepsDatagramsIntact) {
  UdpTransport a, b;
  open_pair(a, b);

  std::array<std::uint8_t, UdpTransport::kMaxDatagramSize> out{};
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<std::uint8_t>(i * 7 + 3);
  out[0] = 0x00;
  out[1] = 0xFF;
  std::array<std::uint8_t, UdpTransport::kMaxDatagramSize> in{};
  std::size_t received = 0;

  // a -> b: a full-size datagram, then a 1-byte one; boundaries are kept.
  ASSERT_EQ(a.send(out.data(), out.size()), Status::kOk);
  ASSERT_EQ(a.send(out.data() + 1, 1), Status::kOk);
  ASSERT_EQ(b.receive(in.data(), in.size(), received, 1'000'000), Status::kOk);
  ASSERT_EQ(received, out.size());
  EXPECT_EQ(in, out);
  EXPECT_EQ(b.last_sender_port(), a.local_port());
  ASSERT_EQ(b.receive(in.data(), in.size(), received, 1'000'000), Status::kOk);
  ASSERT_EQ(received, 1u);
  EXPECT_EQ(in[0], 0xFF);

  // b -> a.
  const std::uint8_t reply[] = {1, 2, 3, 0, 255};
  ASSERT_EQ(b.send(reply, sizeof reply), Status::kOk);
  ASSERT_EQ(a.receive(in.data(), in.size(), received, 1'000'000), Status::kOk);
  ASSERT_EQ(received, sizeof reply);
  for (std::size_t i = 0; i < sizeof reply; ++i) EXPECT_EQ(in[i], reply[i]);
}

TEST(UdpTransport, TimeoutReturnsZeroBytesAndOk) {
  UdpTransport a, b;
  open_pair(a, b);
  std::uint8_t buffer[64];
  std::size_t received = 99;
  EXPECT_EQ(a.receive(buffer, sizeof buffer, received, 0), Status::kOk);
  EXPECT_EQ(received, 0u);
  received = 99;
  EXPECT_EQ(a.receive(buffer, sizeof buffer, received, 5'000), Status::kOk);  // 5 ms
  EXPECT_EQ(received, 0u);
}

TEST(UdpTransport, BindConflictIsReportedWithErrno) {
  UdpTransport first, second;
  ASSERT_EQ(first.open(0, "127.0.0.1", 9, "127.0.0.1"), Status::kOk);
  EXPECT_EQ(second.open(first.local_port(), "127.0.0.1", 9, "127.0.0.1"), Status::kInvalidArgument);
  EXPECT_EQ(second.last_errno(), EADDRINUSE);
  EXPECT_FALSE(second.is_open());
}

TEST(UdpTransport, RejectsBadArgumentsAndUse) {
  UdpTransport closed;
  std::uint8_t byte = 0;
  std::size_t received = 0;
  EXPECT_EQ(closed.send(&byte, 1), Status::kNotConfigured);
  EXPECT_EQ(closed.receive(&byte, 1, received, 0), Status::kNotConfigured);

  UdpTransport t;
  EXPECT_EQ(t.open(0, "not an address..", 9000, "127.0.0.1"), Status::kInvalidArgument);
  EXPECT_EQ(t.open(0, "127.0.0.1", 9000, "300.1.1.1"), Status::kInvalidArgument);
  ASSERT_EQ(t.open(0, "127.0.0.1", 0, "127.0.0.1"), Status::kOk);
  EXPECT_EQ(t.send(&byte, 1), Status::kNotConfigured);  // no peer yet
  ASSERT_EQ(t.set_remote("localhost", 9), Status::kOk);
  std::array<std::uint8_t, UdpTransport::kMaxDatagramSize + 1> big{};
  EXPECT_EQ(t.send(big.data(), big.size()), Status::kInvalidArgument);
  EXPECT_EQ(t.send(nullptr, 1), Status::kInvalidArgument);
  EXPECT_EQ(t.send(&byte, 0), Status::kInvalidArgument);
  EXPECT_EQ(t.receive(nullptr, 1, received, 0), Status::kInvalidArgument);
}

TEST(UdpTransport, TruncatedDatagramIsCorruptInput) {
  UdpTransport a, b;
  open_pair(a, b);
  const std::uint8_t out[32] = {};
  std::uint8_t in[8];
  std::size_t received = 0;
  ASSERT_EQ(a.send(out, sizeof out), Status::kOk);
  EXPECT_EQ(b.receive(in, sizeof in, received, 1'000'000), Status::kCorruptInput);
  EXPECT_EQ(received, sizeof in);
}

TEST(UdpTransport, SendAndReceiveDoNotAllocate) {
  UdpTransport a, b;
  open_pair(a, b);
  std::uint8_t out[200] = {};
  std::uint8_t in[UdpTransport::kMaxDatagramSize];
  int delivered = 0;
  Status worst = Status::kOk;

  hodyn::test::HeapProbe probe;
  for (int i = 0; i < 200; ++i) {
    out[0] = static_cast<std::uint8_t>(i);
    std::size_t received = 0;
    const Status sent = a.send(out, sizeof out);
    const Status got = b.receive(in, sizeof in, received, 100'000);
    if (sent != Status::kOk) worst = sent;
    if (got != Status::kOk) worst = got;
    if (received == sizeof out && in[0] == out[0]) ++delivered;
    b.receive(in, sizeof in, received, 0);  // the timeout path too
  }
  const long allocations = probe.count();

  EXPECT_EQ(allocations, 0);
  EXPECT_EQ(worst, Status::kOk);
  EXPECT_EQ(delivered, 200);
}

}  // namespace
