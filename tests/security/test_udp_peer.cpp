// UdpTransport takes datagrams from its peer only (docs/link-security.md):
// another port on the peer's address, the peer's port on another address and
// a socket with no peer set are dropped and counted exactly; a flood of them
// cannot keep receive() from returning; by default the socket is bound to the
// address the peer is reached through (127.0.0.1 for a loopback peer, so a
// datagram to 127.0.0.2 does not reach it); --bind 0.0.0.0 takes every one.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>

#include "hodyn/posix/udp_transport.hpp"

namespace hodyn {
namespace {

using posix::UdpTransport;

// A plain socket bound to `address`:`port` (0: any) that sends datagrams.
class Sender {
 public:
  explicit Sender(const char* address, std::uint16_t port = 0) {
    fd_ = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_in local{};
    local.sin_family = AF_INET;
    local.sin_port = htons(port);
    inet_pton(AF_INET, address, &local.sin_addr);
    bound_ = ::bind(fd_, reinterpret_cast<const sockaddr*>(&local), sizeof local) == 0;
    socklen_t length = sizeof local;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&local), &length);
    port_ = ntohs(local.sin_port);
  }
  ~Sender() { ::close(fd_); }
  bool bound() const { return bound_; }
  std::uint16_t port() const { return port_; }
  bool send_to(const char* address, std::uint16_t port, std::uint8_t byte) const {
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(port);
    inet_pton(AF_INET, address, &to.sin_addr);
    return ::sendto(fd_, &byte, 1, 0, reinterpret_cast<const sockaddr*>(&to), sizeof to) == 1;
  }

 private:
  int fd_ = -1;
  bool bound_ = false;
  std::uint16_t port_ = 0;
};

std::size_t receive(UdpTransport& t, std::uint8_t& byte, std::int64_t timeout_us = 200'000) {
  std::uint8_t buffer[64];
  std::size_t n = 0;
  EXPECT_EQ(t.receive(buffer, sizeof buffer, n, timeout_us), Status::kOk);
  if (n > 0) byte = buffer[0];
  return n;
}

TEST(UdpPeer, OnlyThePeersAddressAndPortAreHeard) {
  Sender peer("127.0.0.1");
  ASSERT_TRUE(peer.bound());
  UdpTransport t;
  ASSERT_EQ(t.open(0, "127.0.0.1", peer.port()), Status::kOk);
  // Bound where the loopback peer is reached: 127.0.0.1, not every interface.
  EXPECT_EQ(t.local_address(), htonl(INADDR_LOOPBACK));

  Sender other_port("127.0.0.1");
  Sender other_address("127.0.0.2", peer.port());  // the peer's port, another address
  ASSERT_TRUE(other_port.bound());
  ASSERT_TRUE(other_address.bound());
  for (int k = 0; k < 5; ++k) ASSERT_TRUE(other_port.send_to("127.0.0.1", t.local_port(), 0xEE));
  for (int k = 0; k < 3; ++k) ASSERT_TRUE(other_address.send_to("127.0.0.1", t.local_port(), 0xDD));
  ASSERT_TRUE(peer.send_to("127.0.0.1", t.local_port(), 0x42));
  std::uint8_t byte = 0;
  ASSERT_EQ(receive(t, byte), 1u);
  EXPECT_EQ(byte, 0x42);  // the 8 foreign datagrams before it were dropped unseen
  EXPECT_EQ(t.rejected_foreign(), 8u);
  EXPECT_EQ(t.last_sender_port(), peer.port());
  EXPECT_EQ(receive(t, byte, 20'000), 0u);  // nothing else
  EXPECT_EQ(t.rejected_foreign(), 8u);
}

TEST(UdpPeer, AFloodOfOthersCannotHoldReceive) {
  Sender peer("127.0.0.1");
  UdpTransport t;
  ASSERT_EQ(t.open(0, "127.0.0.1", peer.port()), Status::kOk);
  Sender intruder("127.0.0.1");
  const int sent = UdpTransport::kMaxForeignPerReceive + 36;
  for (int k = 0; k < sent; ++k) ASSERT_TRUE(intruder.send_to("127.0.0.1", t.local_port(), 1));
  std::uint8_t byte = 0;
  // One call drops at most kMaxForeignPerReceive and returns as a timeout…
  EXPECT_EQ(receive(t, byte, 0), 0u);
  EXPECT_EQ(t.rejected_foreign(), static_cast<std::uint64_t>(UdpTransport::kMaxForeignPerReceive));
  // …the next one drops the rest and then hears the peer.
  ASSERT_TRUE(peer.send_to("127.0.0.1", t.local_port(), 7));
  ASSERT_EQ(receive(t, byte), 1u);
  EXPECT_EQ(byte, 7);
  EXPECT_EQ(t.rejected_foreign(), static_cast<std::uint64_t>(sent));
}

TEST(UdpPeer, WithoutAPeerNothingIsHeardAndChangingThePeerSwitches) {
  Sender first("127.0.0.1"), second("127.0.0.1");
  UdpTransport t;
  ASSERT_EQ(t.open(0, "127.0.0.1", 0, "127.0.0.1"), Status::kOk);  // no peer yet
  ASSERT_TRUE(first.send_to("127.0.0.1", t.local_port(), 1));
  std::uint8_t byte = 0;
  EXPECT_EQ(receive(t, byte, 50'000), 0u);
  EXPECT_EQ(t.rejected_foreign(), 1u);
  ASSERT_EQ(t.set_remote("127.0.0.1", second.port()), Status::kOk);
  ASSERT_TRUE(first.send_to("127.0.0.1", t.local_port(), 2));
  ASSERT_TRUE(second.send_to("127.0.0.1", t.local_port(), 3));
  ASSERT_EQ(receive(t, byte), 1u);
  EXPECT_EQ(byte, 3);
  EXPECT_EQ(t.rejected_foreign(), 2u);
}

TEST(UdpPeer, TheDefaultBindIsNotReachableFromAnotherAddressButBindAnyIs) {
  Sender peer("127.0.0.1");
  UdpTransport loopback, any;
  ASSERT_EQ(loopback.open(0, "127.0.0.1", peer.port()), Status::kOk);
  ASSERT_EQ(any.open(0, "127.0.0.1", peer.port(), "0.0.0.0"), Status::kOk);
  EXPECT_EQ(any.local_address(), 0u);
  // Sent to 127.0.0.2: the socket bound to 127.0.0.1 never sees it.
  ASSERT_TRUE(peer.send_to("127.0.0.2", loopback.local_port(), 9));
  std::uint8_t byte = 0;
  EXPECT_EQ(receive(loopback, byte, 50'000), 0u);
  EXPECT_EQ(loopback.rejected_foreign(), 0u);
  // The 0.0.0.0 socket gets it (from the peer's port on 127.0.0.1: accepted).
  ASSERT_TRUE(peer.send_to("127.0.0.2", any.local_port(), 9));
  EXPECT_EQ(receive(any, byte), 1u);
}

TEST(UdpPeer, ABadBindAddressOrUnreachablePeerIsRefused) {
  UdpTransport t;
  EXPECT_EQ(t.open(0, "127.0.0.1", 9, "not an address"), Status::kInvalidArgument);
  EXPECT_FALSE(t.is_open());
  // A bind address that is not ours.
  EXPECT_EQ(t.open(0, "127.0.0.1", 9, "192.0.2.1"), Status::kInvalidArgument);
  EXPECT_FALSE(t.is_open());
}

}  // namespace
}  // namespace hodyn
