// hil_common.hpp — what hodyn-fc and hodyn-sim share: the transport options
// (--udp, --bind, --serial, --baud, --serial-pty), the shared key of a signed
// link (--key-file), opening the link, a binary record file (--record) and a
// small JSON object writer (the receive step is hodyn/link/receive.hpp).
// Desktop tools: std::string and std::vector are fine here.
#pragma once

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "hodyn/link/frame_parser.hpp"
#include "hodyn/link/receive.hpp"
#include "hodyn/link/security.hpp"
#include "hodyn/link/transport.hpp"
#include "hodyn/posix/link_key.hpp"
#include "hodyn/posix/realtime_setup.hpp"
#include "hodyn/posix/serial_transport.hpp"
#include "hodyn/posix/udp_transport.hpp"

namespace hodyn {
namespace hil_tools {

bool parse_number(const char* s, double& v);
/// True when v is a whole number within lo..hi: what a count, a seed or a CPU
/// index must be before it is converted to an integer (a fraction would be
/// truncated, and a value beyond the integer's range is undefined behaviour).
inline bool whole_number_in(double v, double lo, double hi) {
  return v >= lo && v <= hi && v == static_cast<double>(static_cast<long long>(v));
}
/// "A:B" into two numbers.
bool parse_pair(const char* s, double& a, double& b);

struct LinkOptions {
  bool udp = false;
  std::uint16_t local_port = 0;
  std::string remote_host;
  std::uint16_t remote_port = 0;
  std::string bind_address;  ///< --bind: empty = the address the peer is reached through
  std::string key_file;      ///< --key-file: empty = an unsigned link
  std::string serial_path;
  std::uint32_t baud = 921600;
  bool serial_pty = false;    ///< create a pty pair, use its master end (hodyn-sim)
  std::string pty_path_file;  ///< where the slave path is written
  /// Serial / pty: how long a send may wait for room (a slow reader). The
  /// tools set 1 s in lockstep mode (a frame is never dropped for a reader
  /// descheduled a few ms), the transport's 10 ms in realtime mode.
  std::int64_t serial_send_timeout_us = posix::SerialTransport::kDefaultSendTimeoutUs;
};

/// Exactly one of --udp, --serial, --serial-pty: else one line on stderr and
/// false (the parsers then exit 2, a usage error).
bool link_choice_ok(const char* tool, const LinkOptions& o);

/// Handles --udp, --bind, --key-file, --serial, --baud, --serial-pty,
/// --pty-path-file. Returns
/// 1 when `opt` was one of them (consuming its value), 0 when not, -1 on a
/// bad value (message printed).
int parse_link_option(const char* tool, const std::string& opt, const char* value, bool has_value,
                      LinkOptions& link);
/// Same for --fifo, --lock-memory, --cpu.
int parse_realtime_option(const char* tool, const std::string& opt, const char* value,
                          bool has_value, posix::RealtimeOptions& rt);
/// Whether the option needs a value (so the caller can take argv[i+1]).
bool option_takes_value(const std::string& opt);
/// A value that is itself an option (`--summary-json --udp …`: the file name
/// forgotten) is refused: one line on stderr naming both, true. Paths that
/// really begin with "--" can be given as ./--name.
bool value_is_an_option(const char* tool, const std::string& opt, const char* value);

/// Reads --key-file (when given) into `key`: true and `have_key` set, or
/// false after one line on stderr naming the file and the reason (the
/// caller exits with 2). The key's bytes are never printed.
bool load_link_key(const char* tool, const LinkOptions& options,
                   std::uint8_t key[link::kLinkKeySize], bool& have_key);

/// The open link of a process.
class LinkEndpoint {
 public:
  /// Opens what `options` says; false with a message on stderr.
  bool open(const char* tool, const LinkOptions& options);
  link::Transport& transport() { return *transport_; }
  std::string description() const { return description_; }
  bool is_serial() const { return !udp_.is_open(); }
  /// UDP datagrams dropped for coming from another address or port than the
  /// peer's (0 on a serial link).
  std::uint64_t rejected_foreign() const { return udp_.rejected_foreign(); }

 private:
  posix::UdpTransport udp_;
  posix::SerialTransport serial_;
  posix::PtyPair pty_;
  link::Transport* transport_ = nullptr;
  std::string description_;
};

/// One robot an in-tree tool flies: its name (--robot) and the program
/// for it (run_hodyn_fc<Robot> / run_hodyn_sim<Robot>).
struct ToolRobot {
  const char* name;
  int (*run)(int argc, char** argv);
};

/// hodyn-fc / hodyn-sim's robot choice: --list-robots prints the names, one a
/// line, and returns 0; --robot NAME runs that robot's program (an unknown
/// name or a missing value: one line on stderr, 2); no --robot: the first
/// robot. The program sees all of argv (its --robot is then its own name).
int run_robot_tool(const char* tool, const ToolRobot* robots, std::size_t count, int argc,
                   char** argv);

/// The receive step and the chunked parser feed (hodyn/link/receive.hpp).
using link::parse_bytes;
using link::receive_once;

/// A flat JSON object built in order: numbers, strings, raw JSON values.
class JsonObject {
 public:
  void number(const std::string& key, double v);
  void integer(const std::string& key, std::uint64_t v);
  void string(const std::string& key, const std::string& v);
  void raw(const std::string& key, const std::string& json);
  /// `{ … }` with two-space indentation.
  std::string text() const;
  bool write(const std::string& path) const;

 private:
  std::vector<std::pair<std::string, std::string>> members_;
};

/// A binary record of a run (--record FILE), written to FILE.tmp and renamed
/// to FILE by close(), so FILE is either absent or complete. Two runs that
/// did the same write the same bytes (tests compare them with cmp).
class RecordFile {
 public:
  RecordFile() = default;
  RecordFile(const RecordFile&) = delete;
  RecordFile& operator=(const RecordFile&) = delete;
  /// A record never closed (the run did not finish) leaves no file behind.
  ~RecordFile();
  /// Starts FILE.tmp; false with a message on stderr when it cannot.
  bool open(const char* tool, const std::string& path);
  bool is_open() const { return !path_.empty(); }
  void write(const void* data, std::size_t size);
  /// Flushes and renames FILE.tmp to FILE; false with a message on error.
  bool close(const char* tool);

 private:
  std::string path_;
  std::ofstream out_;
};

/// The parser's counters as JSON members under `prefix` (bytes, frames_ok,
/// rejected_total and one rejected_<reason> per reason).
void add_link_counters(JsonObject& json, const std::string& prefix,
                       const link::LinkCounters& counters);
/// A line like "rx: 123 frames ok, 4 rejected (bad CRC 3, COBS error 1)".
void print_link_counters(std::FILE* out, const char* label, const link::LinkCounters& counters);

}  // namespace hil_tools
}  // namespace hodyn
