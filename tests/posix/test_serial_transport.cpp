// SerialTransport and PtyPair: raw bytes both ways (0x00, 0xFF, CR, LF, ^C,
// ^D unchanged), timeouts, baud validation, opening the slave by its path as a
// second process would, and no heap use in send/receive after open().
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <chrono>
#include <thread>

#include "hodyn/posix/serial_transport.hpp"
#include "support/heap_counter.hpp"

namespace {

using hodyn::Status;
using hodyn::posix::PtyPair;
using hodyn::posix::SerialTransport;

// Reads exactly `size` bytes (a stream may deliver them in pieces).
Status receive_all(SerialTransport& from, std::uint8_t* buffer, std::size_t size) {
  std::size_t have = 0;
  for (int attempt = 0; attempt < 200 && have < size; ++attempt) {
    std::size_t got = 0;
    const Status s = from.receive(buffer + have, size - have, got, 10'000);
    if (s != Status::kOk) return s;
    have += got;
  }
  return have == size ? Status::kOk : Status::kStaleInput;
}

// Every byte value, with the ones a cooked tty would eat or translate first.
void fill_all_byte_values(std::uint8_t (&bytes)[256 + 8]) {
  const std::uint8_t special[8] = {0x00, 0xFF, '\r', '\n', 0x03, 0x04, 0x11, 0x13};
  std::memcpy(bytes, special, sizeof special);
  for (int i = 0; i < 256; ++i) bytes[8 + i] = static_cast<std::uint8_t>(i);
}

TEST(PtyPair, RawBytesArriveUnchangedBothWays) {
  PtyPair pty;
  ASSERT_EQ(pty.open(115200), Status::kOk) << std::strerror(pty.last_errno());
  EXPECT_EQ(std::strncmp(pty.slave_path(), "/dev/", 5), 0) << pty.slave_path();

  std::uint8_t out[256 + 8];
  fill_all_byte_values(out);
  std::uint8_t in[sizeof out] = {};

  ASSERT_EQ(pty.master_end().send(out, sizeof out), Status::kOk);
  ASSERT_EQ(receive_all(pty.slave_end(), in, sizeof in), Status::kOk);
  EXPECT_EQ(std::memcmp(in, out, sizeof out), 0);

  std::memset(in, 0xAA, sizeof in);
  ASSERT_EQ(pty.slave_end().send(out, sizeof out), Status::kOk);
  ASSERT_EQ(receive_all(pty.master_end(), in, sizeof in), Status::kOk);
  EXPECT_EQ(std::memcmp(in, out, sizeof out), 0);

  // No echo: nothing came back to the sender.
  std::size_t got = 0;
  EXPECT_EQ(pty.master_end().receive(in, sizeof in, got, 10'000), Status::kOk);
  EXPECT_EQ(got, 0u);
}

// The HIL flake (docs/hil.md, "The flake"): a pty holds only a few KiB, so
// a writer whose reader is descheduled longer than the send timeout (10 ms by
// default) loses the frame. With a longer send timeout (the lockstep tools:
// 1 s) the same write waits for the reader and every byte arrives.
TEST(SerialTransport, AFullQueueWaitsForASlowReaderUpToTheSendTimeout) {
  PtyPair pty;
  ASSERT_EQ(pty.open(921600), Status::kOk) << std::strerror(pty.last_errno());
  SerialTransport& writer = pty.master_end();
  EXPECT_EQ(writer.send_timeout_us(), SerialTransport::kDefaultSendTimeoutUs);
  std::uint8_t frame[1348];  // REFERENCE + SENSORS of one HIL period
  std::memset(frame, 0x5A, sizeof frame);
  // Nobody reads: the queue fills and a send gives up after ~10 ms.
  std::size_t accepted = 0;
  Status s = Status::kOk;
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 1000 && s == Status::kOk; ++i) {
    t0 = std::chrono::steady_clock::now();
    s = writer.send(frame, sizeof frame);
    if (s == Status::kOk) accepted += sizeof frame;
  }
  const double gave_up_after =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(s, Status::kStaleInput) << "the pty took " << accepted << " bytes without a reader";
  EXPECT_GE(gave_up_after, 0.009);
  EXPECT_LT(accepted, 1000u * sizeof frame);

  // A reader that starts 50 ms late drains everything; the writer waits.
  writer.set_send_timeout_us(1'000'000);
  std::size_t drained = 0;
  std::thread reader([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::uint8_t buffer[4096];
    for (;;) {
      std::size_t got = 0;
      if (pty.slave_end().receive(buffer, sizeof buffer, got, 200'000) != Status::kOk || got == 0)
        break;
      drained += got;
    }
  });
  const auto t1 = std::chrono::steady_clock::now();
  const Status late = writer.send(frame, sizeof frame);
  const double waited =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
  reader.join();
  EXPECT_EQ(late, Status::kOk);
  EXPECT_GE(waited, 0.02);  // it did wait for the reader
  // Everything written arrived (the given-up frame may have gone in part).
  EXPECT_GE(drained, accepted + sizeof frame);
  EXPECT_LE(drained, accepted + 2 * sizeof frame);
}

TEST(PtyPair, SlaveOpenedByPathLikeASecondProcess) {
  PtyPair pty;
  ASSERT_EQ(pty.open(921600), Status::kOk);
  SerialTransport peer;
  ASSERT_EQ(peer.open(pty.slave_path(), 921600), Status::kOk) << std::strerror(peer.last_errno());
  EXPECT_EQ(peer.baud(), 921600u);

  const std::uint8_t out[] = {0x7E, 0x00, 0xFF, '\n', '\r', 0x7E};
  std::uint8_t in[sizeof out] = {};
  ASSERT_EQ(pty.master_end().send(out, sizeof out), Status::kOk);
  ASSERT_EQ(receive_all(peer, in, sizeof in), Status::kOk);
  EXPECT_EQ(std::memcmp(in, out, sizeof out), 0);
  ASSERT_EQ(peer.send(out, sizeof out), Status::kOk);
  ASSERT_EQ(receive_all(pty.master_end(), in, sizeof in), Status::kOk);
  EXPECT_EQ(std::memcmp(in, out, sizeof out), 0);
}

TEST(PtyPair, TimeoutReturnsZeroBytesAndOk) {
  PtyPair pty;
  ASSERT_EQ(pty.open(), Status::kOk);
  std::uint8_t buffer[16];
  std::size_t got = 99;
  EXPECT_EQ(pty.slave_end().receive(buffer, sizeof buffer, got, 0), Status::kOk);
  EXPECT_EQ(got, 0u);
  got = 99;
  EXPECT_EQ(pty.slave_end().receive(buffer, sizeof buffer, got, 5'000), Status::kOk);
  EXPECT_EQ(got, 0u);
}

TEST(SerialTransport, BaudValidation) {
  for (std::uint32_t baud : {9600u, 19200u, 38400u, 57600u, 115200u, 230400u, 460800u, 921600u}) {
    EXPECT_TRUE(SerialTransport::is_supported_baud(baud)) << baud;
  }
  for (std::uint32_t baud : {0u, 300u, 4800u, 100000u, 115201u, 12345678u}) {
    EXPECT_FALSE(SerialTransport::is_supported_baud(baud)) << baud;
  }
  PtyPair pty;
  EXPECT_EQ(pty.open(12345), Status::kInvalidArgument);
  ASSERT_EQ(pty.open(), Status::kOk);
  SerialTransport serial;
  EXPECT_EQ(serial.open(pty.slave_path(), 4800), Status::kInvalidArgument);
  EXPECT_FALSE(serial.is_open());
}

TEST(SerialTransport, OpenErrorsAreReported) {
  SerialTransport serial;
  EXPECT_EQ(serial.open("/nonexistent/tty", 115200), Status::kInvalidArgument);
  EXPECT_EQ(serial.last_errno(), ENOENT);
  EXPECT_EQ(serial.open("/dev/null", 115200), Status::kInvalidArgument);  // not a tty
  EXPECT_EQ(serial.last_errno(), ENOTTY);
  std::uint8_t byte = 0;
  std::size_t got = 0;
  EXPECT_EQ(serial.send(&byte, 1), Status::kNotConfigured);
  EXPECT_EQ(serial.receive(&byte, 1, got, 0), Status::kNotConfigured);
}

TEST(SerialTransport, HangUpOfThePeerIsStaleInput) {
  PtyPair pty;
  ASSERT_EQ(pty.open(), Status::kOk);
  pty.slave_end().close();  // the only slave descriptor: the master sees a hang-up
  std::uint8_t buffer[16];
  std::size_t got = 0;
  EXPECT_EQ(pty.master_end().receive(buffer, sizeof buffer, got, 10'000), Status::kStaleInput);
  EXPECT_EQ(got, 0u);
}

TEST(SerialTransport, SendAndReceiveDoNotAllocate) {
  PtyPair pty;
  ASSERT_EQ(pty.open(), Status::kOk);
  std::uint8_t out[64];
  for (std::size_t i = 0; i < sizeof out; ++i) out[i] = static_cast<std::uint8_t>(255 - i);
  std::uint8_t in[sizeof out];
  int intact = 0;

  hodyn::test::HeapProbe probe;
  for (int i = 0; i < 100; ++i) {
    out[0] = static_cast<std::uint8_t>(i);
    const bool sent = pty.master_end().send(out, sizeof out) == Status::kOk;
    const bool got = receive_all(pty.slave_end(), in, sizeof in) == Status::kOk;
    if (sent && got && std::memcmp(in, out, sizeof out) == 0) ++intact;
  }
  const long allocations = probe.count();

  EXPECT_EQ(allocations, 0);
  EXPECT_EQ(intact, 100);
}

}  // namespace
