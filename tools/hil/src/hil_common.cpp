// What hodyn-fc and hodyn-sim share (see hil_common.hpp).
#include "hodyn/hil_tools/hil_common.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>

#include "hodyn/closed_loop/report.hpp"

namespace hodyn {
namespace hil_tools {

bool parse_number(const char* s, double& v) {
  char* end = nullptr;
  v = std::strtod(s, &end);
  return end != s && *end == '\0' && std::isfinite(v);
}

bool parse_pair(const char* s, double& a, double& b) {
  const char* colon = std::strchr(s, ':');
  if (colon == nullptr) return false;
  const std::string first(s, colon);
  return parse_number(first.c_str(), a) && parse_number(colon + 1, b);
}

bool option_takes_value(const std::string& opt) {
  // (--bind and --key-file take one: the default below.)
  return opt != "--serial-pty" && opt != "--lock-memory" && opt != "--help" && opt != "-h";
}

bool value_is_an_option(const char* tool, const std::string& opt, const char* value) {
  if (value == nullptr || std::strncmp(value, "--", 2) != 0) return false;
  std::cerr << tool << ": " << opt << " needs a value, got the option '" << value << "'\n";
  return true;
}

int parse_link_option(const char* tool, const std::string& opt, const char* value, bool has_value,
                      LinkOptions& link) {
  const bool known = opt == "--udp" || opt == "--serial" || opt == "--baud" ||
                     opt == "--serial-pty" || opt == "--pty-path-file" || opt == "--bind" ||
                     opt == "--key-file";
  if (!known) return 0;
  if (opt == "--serial-pty") {
    link.serial_pty = true;
    return 1;
  }
  if (!has_value) {
    std::cerr << tool << ": " << opt << " needs a value\n";
    return -1;
  }
  if (value_is_an_option(tool, opt, value)) return -1;
  if (opt == "--udp") {
    // LOCAL_PORT:REMOTE_HOST:REMOTE_PORT
    const std::string s = value;
    const auto a = s.find(':'), b = s.rfind(':');
    double local = -1.0, remote = -1.0;
    if (a == std::string::npos || a == b || !parse_number(s.substr(0, a).c_str(), local) ||
        !parse_number(s.substr(b + 1).c_str(), remote) || local < 0 || local > 65535 ||
        remote < 1 || remote > 65535 || b - a < 2) {
      std::cerr << tool << ": --udp needs LOCAL_PORT:REMOTE_HOST:REMOTE_PORT, got '" << s << "'\n";
      return -1;
    }
    link.udp = true;
    link.local_port = static_cast<std::uint16_t>(local);
    link.remote_host = s.substr(a + 1, b - a - 1);
    link.remote_port = static_cast<std::uint16_t>(remote);
  } else if (opt == "--serial") {
    link.serial_path = value;
  } else if (opt == "--baud") {
    double v = 0.0;
    if (!parse_number(value, v) || !whole_number_in(v, 1.0, 4.0e9) ||
        !posix::SerialTransport::is_supported_baud(static_cast<std::uint32_t>(v))) {
      std::cerr << tool << ": unsupported --baud '" << value << "'\n";
      return -1;
    }
    link.baud = static_cast<std::uint32_t>(v);
  } else if (opt == "--pty-path-file") {
    link.pty_path_file = value;
  } else if (opt == "--bind") {
    in_addr parsed{};
    if (inet_pton(AF_INET, value, &parsed) != 1) {
      std::cerr << tool << ": --bind needs a dotted IPv4 address (0.0.0.0: every interface), got '"
                << value << "'\n";
      return -1;
    }
    link.bind_address = value;
  } else if (opt == "--key-file") {
    if (*value == '\0') {
      std::cerr << tool << ": --key-file needs a file name\n";
      return -1;
    }
    link.key_file = value;
  }
  return 1;
}

bool load_link_key(const char* tool, const LinkOptions& options,
                   std::uint8_t key[link::kLinkKeySize], bool& have_key) {
  have_key = false;
  if (options.key_file.empty()) return true;
  char why[512];
  if (posix::read_link_key(options.key_file.c_str(), key, why, sizeof why) != Status::kOk) {
    std::cerr << tool << ": " << why << "\n";
    return false;
  }
  have_key = true;
  return true;
}

int parse_realtime_option(const char* tool, const std::string& opt, const char* value,
                          bool has_value, posix::RealtimeOptions& rt) {
  if (opt == "--lock-memory") {
    rt.lock_memory = true;
    return 1;
  }
  if (opt != "--fifo" && opt != "--cpu") return 0;
  double v = 0.0;
  const bool ok =
      has_value && parse_number(value, v) &&
      (opt == "--fifo" ? whole_number_in(v, 1.0, 99.0) : whole_number_in(v, 0.0, 4095.0));
  if (!ok) {
    std::cerr << tool << ": " << opt << " needs a whole number (--fifo 1..99, --cpu 0..4095)\n";
    return -1;
  }
  if (opt == "--fifo") rt.fifo_priority = static_cast<int>(v);
  if (opt == "--cpu") rt.cpu_core = static_cast<int>(v);
  return 1;
}

bool link_choice_ok(const char* tool, const LinkOptions& o) {
  const int choices = (o.udp ? 1 : 0) + (o.serial_path.empty() ? 0 : 1) + (o.serial_pty ? 1 : 0);
  if (choices == 1) return true;
  std::cerr << tool << ": give exactly one of --udp, --serial, --serial-pty\n";
  return false;
}

bool LinkEndpoint::open(const char* tool, const LinkOptions& o) {
  if (!link_choice_ok(tool, o)) return false;
  if (o.udp) {
    const char* bind = o.bind_address.empty() ? nullptr : o.bind_address.c_str();
    if (udp_.open(o.local_port, o.remote_host.c_str(), o.remote_port, bind) != Status::kOk) {
      std::cerr << tool << ": cannot open UDP port " << o.local_port << " -> " << o.remote_host
                << ":" << o.remote_port << " ("
                << (udp_.last_errno() != 0 ? std::strerror(udp_.last_errno())
                                           : "the host does not resolve to an IPv4 address")
                << ")\n";
      return false;
    }
    transport_ = &udp_;
    in_addr bound{};
    bound.s_addr = udp_.local_address();
    char address[INET_ADDRSTRLEN] = "?";
    inet_ntop(AF_INET, &bound, address, sizeof address);
    description_ = "UDP " + std::string(address) + ":" + std::to_string(udp_.local_port()) +
                   " <-> " + o.remote_host + ":" + std::to_string(o.remote_port) +
                   " (only this peer)";
  } else if (o.serial_pty) {
    if (pty_.open(o.baud) != Status::kOk) {
      std::cerr << tool << ": cannot create a pty pair (" << std::strerror(pty_.last_errno())
                << ")\n";
      return false;
    }
    pty_.master_end().set_send_timeout_us(o.serial_send_timeout_us);
    transport_ = &pty_.master_end();
    description_ = std::string("pty master, slave ") + pty_.slave_path() + " at " +
                   std::to_string(o.baud) + " baud";
    std::printf("%s: pty slave %s\n", tool, pty_.slave_path());
    std::fflush(stdout);
    if (!o.pty_path_file.empty()) {
      const std::string tmp = o.pty_path_file + ".tmp";
      {
        std::ofstream f(tmp);
        f << pty_.slave_path() << "\n";
      }
      if (std::rename(tmp.c_str(), o.pty_path_file.c_str()) != 0) {
        std::cerr << tool << ": cannot write " << o.pty_path_file << "\n";
        return false;
      }
    }
  } else {
    if (serial_.open(o.serial_path.c_str(), o.baud) != Status::kOk) {
      std::cerr << tool << ": cannot open " << o.serial_path << " at " << o.baud << " baud ("
                << std::strerror(serial_.last_errno()) << ")\n";
      return false;
    }
    serial_.set_send_timeout_us(o.serial_send_timeout_us);
    transport_ = &serial_;
    description_ = "serial " + o.serial_path + " at " + std::to_string(o.baud) + " baud";
  }
  return true;
}

int run_robot_tool(const char* tool, const ToolRobot* robots, std::size_t count, int argc,
                   char** argv) {
  const ToolRobot* chosen = count > 0 ? &robots[0] : nullptr;
  for (int i = 1; i < argc; ++i) {
    const std::string opt = argv[i];
    if (opt == "--list-robots") {
      for (std::size_t r = 0; r < count; ++r) std::printf("%s\n", robots[r].name);
      return 0;
    }
    if (opt != "--robot") continue;
    if (i + 1 >= argc) {
      std::cerr << tool << ": --robot needs a robot name (see --list-robots)\n";
      return 2;
    }
    chosen = nullptr;
    for (std::size_t r = 0; r < count; ++r)
      if (std::strcmp(argv[i + 1], robots[r].name) == 0) chosen = &robots[r];
    if (chosen == nullptr) {
      std::string names;
      for (std::size_t r = 0; r < count; ++r)
        names += (r > 0 ? ", " : "") + std::string(robots[r].name);
      std::cerr << tool << ": unknown robot '" << argv[i + 1] << "' (" << names << ")\n";
      return 2;
    }
    ++i;
  }
  if (chosen == nullptr) {
    std::cerr << tool << ": no robot compiled in\n";
    return 1;
  }
  return chosen->run(argc, argv);
}

void JsonObject::number(const std::string& key, double v) {
  members_.emplace_back(key, closed_loop::json_number(v));
}
void JsonObject::integer(const std::string& key, std::uint64_t v) {
  members_.emplace_back(key, std::to_string(v));
}
void JsonObject::string(const std::string& key, const std::string& v) {
  std::string quoted = "\"";
  for (char c : v) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  members_.emplace_back(key, quoted + "\"");
}
void JsonObject::raw(const std::string& key, const std::string& json) {
  members_.emplace_back(key, json);
}

std::string JsonObject::text() const {
  std::string out = "{\n";
  for (std::size_t i = 0; i < members_.size(); ++i)
    out += "  \"" + members_[i].first + "\": " + members_[i].second +
           (i + 1 < members_.size() ? ",\n" : "\n");
  return out + "}\n";
}

bool JsonObject::write(const std::string& path) const {
  // All or nothing: PATH.tmp, then renamed over PATH (a reader never sees half a file).
  const std::string tmp = path + ".tmp";
  bool ok = false;
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f << text();
    f.close();
    ok = static_cast<bool>(f);
  }
  ok = ok && std::rename(tmp.c_str(), path.c_str()) == 0;
  if (!ok) std::remove(tmp.c_str());
  return ok;
}

RecordFile::~RecordFile() {
  if (!is_open()) return;
  out_.close();
  std::remove((path_ + ".tmp").c_str());
}

bool RecordFile::open(const char* tool, const std::string& path) {
  out_.open(path + ".tmp", std::ios::binary | std::ios::trunc);
  if (!out_) {
    std::cerr << tool << ": cannot write " << path << ".tmp\n";
    return false;
  }
  path_ = path;
  return true;
}

void RecordFile::write(const void* data, std::size_t size) {
  if (is_open()) out_.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
}

bool RecordFile::close(const char* tool) {
  if (!is_open()) return true;
  out_.close();
  const std::string tmp = path_ + ".tmp";
  const bool ok = static_cast<bool>(out_) && std::rename(tmp.c_str(), path_.c_str()) == 0;
  if (!ok) {
    std::cerr << tool << ": cannot write " << path_ << "\n";
    std::remove(tmp.c_str());
  }
  path_.clear();
  return ok;
}

namespace {
std::string reason_key(link::RejectReason r) {
  std::string key = link::to_string(r);
  for (char& c : key) c = (c == ' ') ? '_' : static_cast<char>(std::tolower(c));
  return key;
}
}  // namespace

void add_link_counters(JsonObject& json, const std::string& prefix, const link::LinkCounters& c) {
  json.integer(prefix + "bytes", c.bytes);
  json.integer(prefix + "frames_ok", c.frames_ok);
  json.integer(prefix + "rejected_total", c.total_rejected());
  for (std::size_t k = 1; k < link::kRejectReasonCount; ++k) {
    const auto r = static_cast<link::RejectReason>(k);
    json.integer(prefix + "rejected_" + reason_key(r), c.rejected_count(r));
  }
  json.integer(prefix + "parser_queue_dropped", c.messages_dropped);
}

void print_link_counters(std::FILE* out, const char* label, const link::LinkCounters& c) {
  std::fprintf(out, "  %s: %llu bytes, %llu frames ok, %llu rejected", label,
               static_cast<unsigned long long>(c.bytes),
               static_cast<unsigned long long>(c.frames_ok),
               static_cast<unsigned long long>(c.total_rejected()));
  bool first = true;
  for (std::size_t k = 1; k < link::kRejectReasonCount; ++k) {
    if (c.rejected[k] == 0) continue;
    std::fprintf(out, "%s%s %llu", first ? " (" : ", ",
                 link::to_string(static_cast<link::RejectReason>(k)),
                 static_cast<unsigned long long>(c.rejected[k]));
    first = false;
  }
  std::fprintf(out, "%s\n", first ? "" : ")");
}

}  // namespace hil_tools
}  // namespace hodyn
