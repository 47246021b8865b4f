// hodyn/link/security.hpp — authenticated frames (docs/link-security.md):
// the keys an end of the link derives from the shared 32-byte key, the
// counters it signs with, and the checks it makes on what it receives.
//
//   LinkKeys keys;  keys.set_master_key(key, 32, LinkEnd::kController);
//   FrameSigner signer(keys);      // the next counter and key of each frame sent
//   FrameVerifier verifier(keys);  // MAC and replay checks of each frame received
//   parser.set_verifier(&verifier);
//   encode(command, ..., wire, sizeof wire, size, &signer);
//   keys.start_session(simulator_nonce, controller_nonce);   // at the HELLO
//
// A signed frame carries, between its payload and its CRC, a 64-bit counter
// and a 16-byte SipHash-2-4-128 tag over the header, the payload and the
// counter. HELLOs are signed with a HELLO key per direction derived from the
// shared key alone; every other frame with a session key per direction
// derived from the shared key and both ends' HELLO nonces, so a session's
// keys are new whenever either end is restarted. Counters: HELLOs carry the
// sender's never-repeating HELLO counter (set_hello_counter: a boot counter or
// the wall clock), session frames 1, 2, 3, … of their session's key.
//
// Heap-free, exception-free; keys are wiped by clear() and the destructor.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hodyn/link/protocol.hpp"
#include "hodyn/status.hpp"

namespace hodyn {
namespace link {

constexpr std::size_t kLinkKeySize = 32;       ///< the shared key (a --key-file's bytes)
constexpr std::size_t kSessionKeySize = 16;    ///< a SipHash key
constexpr std::size_t kSessionNonceSize = 16;  ///< a HELLO's nonce

/// Which end of the link this is (what it signs and what it checks).
enum class LinkEnd : std::uint8_t { kSimulator = 1, kController = 2 };

/// The keys of one end: the two HELLO keys and, once a session started, the
/// two session keys (one per direction).
class LinkKeys {
 public:
  LinkKeys() noexcept = default;
  ~LinkKeys() { clear(); }
  LinkKeys(const LinkKeys&) = delete;
  LinkKeys& operator=(const LinkKeys&) = delete;

  /// Takes the shared key (kLinkKeySize bytes) for the end `end` and derives
  /// the HELLO keys; no session yet. kInvalidArgument, everything cleared,
  /// for a null key, another size or 32 zero bytes (an unprovisioned
  /// firmware's key section).
  Status set_master_key(const std::uint8_t* key, std::size_t size, LinkEnd end) noexcept;
  /// Forgets every key (overwritten with zeros): unsigned frames again.
  void clear() noexcept;
  bool enabled() const noexcept { return enabled_; }
  LinkEnd end() const noexcept { return end_; }

  /// Derives the session keys of the HELLO exchange (`simulator_nonce` of the
  /// simulator's HELLO, `controller_nonce` of the controller's answer);
  /// session() counts up. Ignored without a shared key.
  void start_session(const std::uint8_t simulator_nonce[kSessionNonceSize],
                     const std::uint8_t controller_nonce[kSessionNonceSize]) noexcept;
  /// 0: no session yet; then 1, 2, … per start_session().
  std::uint32_t session() const noexcept { return session_; }
  const std::uint8_t* simulator_nonce() const noexcept { return simulator_nonce_; }
  const std::uint8_t* controller_nonce() const noexcept { return controller_nonce_; }

  /// The key that signs (`transmit`) or checks a frame of `type` at this
  /// end: the direction's HELLO key for a HELLO, its session key otherwise;
  /// null without a shared key or (session frames) before a session.
  const std::uint8_t* key(MessageType type, bool transmit) const noexcept;

 private:
  bool enabled_ = false;
  LinkEnd end_ = LinkEnd::kSimulator;
  std::uint32_t session_ = 0;
  std::uint8_t master_[kLinkKeySize] = {};
  // [0]: simulator -> controller, [1]: controller -> simulator.
  std::uint8_t hello_[2][kSessionKeySize] = {};
  std::uint8_t session_keys_[2][kSessionKeySize] = {};
  std::uint8_t simulator_nonce_[kSessionNonceSize] = {};
  std::uint8_t controller_nonce_[kSessionNonceSize] = {};
};

/// The anti-replay window of a session's counters (as IPsec's, RFC 4303
/// section 3.4.3): a counter is fresh when above the highest one accepted, or
/// at most kSize - 1 below it and not accepted yet. 0 is never fresh.
class ReplayWindow {
 public:
  static constexpr std::uint64_t kSize = 64;

  bool fresh(std::uint64_t counter) const noexcept;
  /// Marks `counter` accepted (call only after fresh(counter)).
  void accept(std::uint64_t counter) noexcept;
  void reset() noexcept { highest_ = seen_ = 0; }
  std::uint64_t highest() const noexcept { return highest_; }

 private:
  std::uint64_t highest_ = 0;
  std::uint64_t seen_ = 0;  // bit i: counter highest_ - i accepted
};

/// The transmit side: the counter and the key of each frame sent.
class FrameSigner {
 public:
  explicit FrameSigner(const LinkKeys& keys) noexcept : keys_(keys) {}

  /// The frames it signs are signed (its keys hold a shared key).
  bool enabled() const noexcept { return keys_.enabled(); }

  /// The counter of the next HELLO. It must never repeat for the shared key,
  /// across restarts too: a boot counter << 32 (the firmware) or the wall
  /// clock in nanoseconds (the desktop tools).
  void set_hello_counter(std::uint64_t next) noexcept { hello_next_ = next; }
  std::uint64_t hello_counter() const noexcept { return hello_next_; }

  /// For the next frame of `type`: `key` null (kOk) when this end has no
  /// shared key (the frame goes unsigned); else the key and a counter, never
  /// the same twice for that key. kNotConfigured for a session frame before
  /// a session, or a counter exhausted.
  Status next(MessageType type, std::uint64_t& counter, const std::uint8_t*& key) noexcept;

 private:
  const LinkKeys& keys_;
  std::uint64_t hello_next_ = 1;
  std::uint64_t session_next_ = 1;
  std::uint32_t session_ = 0;  // the session session_next_ counts for
};

/// The receive side (one per parser): checks a signed frame's tag and
/// counter. The HELLO counter must rise strictly (HELLOs are not reordered);
/// session counters go through a ReplayWindow that starts over with each
/// session.
class FrameVerifier {
 public:
  explicit FrameVerifier(const LinkKeys& keys) noexcept : keys_(keys) {}

  bool enabled() const noexcept { return keys_.enabled(); }

  /// Checks a whole unstuffed frame (header … CRC, the CRC already checked)
  /// whose header says signed: kTooShort (no room for a signature), kBadMac
  /// (the tag does not match, or no key to check it with), kReplay (the
  /// counter was seen or is too old), else kNone; then commit() accepts it.
  RejectReason check(const std::uint8_t* frame, std::size_t size) noexcept;
  /// Accepts the counter of the frame check() passed last.
  void commit() noexcept;
  /// Forgets the counters seen (a new boot of this end).
  void reset() noexcept;

  const ReplayWindow& window() const noexcept { return window_; }
  std::uint64_t last_hello_counter() const noexcept { return last_hello_; }

 private:
  const LinkKeys& keys_;
  ReplayWindow window_;
  std::uint32_t session_ = 0;  // the session window_ belongs to
  std::uint64_t last_hello_ = 0;
  bool pending_ = false, pending_hello_ = false;
  std::uint64_t pending_counter_ = 0;
};

/// Equal tags, in time independent of where they differ.
bool tags_equal(const std::uint8_t* a, const std::uint8_t* b, std::size_t size) noexcept;

}  // namespace link
}  // namespace hodyn
