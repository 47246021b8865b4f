// Keys, counters and checks of signed frames (hodyn/link/security.hpp,
// docs/link-security.md).
//
// Key derivation: with the shared key K = K1 || K2 (16 bytes each),
//   KDF(label, n_sim, n_fc) = SipHash128(K1, m) XOR SipHash128(K2, m),
//   m = label (16 bytes) || n_sim (16) || n_fc (16),
// the XOR of two PRFs under independent keys, a PRF as long as either half of
// K is secret. HELLO keys use zero nonces; session keys the two HELLO nonces.
#include "hodyn/link/security.hpp"

#include "hodyn/link/siphash.hpp"

namespace hodyn {
namespace link {
namespace {

constexpr std::size_t kLabelSize = 16;
// Labels, padded with zeros: [direction 0 = simulator -> controller, 1 = back].
constexpr char kHelloLabels[2][kLabelSize + 1] = {"hodyn-hello-s2c", "hodyn-hello-c2s"};
constexpr char kSessionLabels[2][kLabelSize + 1] = {"hodyn-sess-s2c", "hodyn-sess-c2s"};

void wipe(std::uint8_t* p, std::size_t n) noexcept {
  volatile std::uint8_t* v = p;  // not optimized away
  for (std::size_t k = 0; k < n; ++k) v[k] = 0;
}

void derive(const std::uint8_t* master, const char* label, const std::uint8_t* n_sim,
            const std::uint8_t* n_fc, std::uint8_t out[kSessionKeySize]) noexcept {
  std::uint8_t m[kLabelSize + 2 * kSessionNonceSize] = {};
  for (std::size_t k = 0; k < kLabelSize && label[k] != '\0'; ++k)
    m[k] = static_cast<std::uint8_t>(label[k]);
  for (std::size_t k = 0; k < kSessionNonceSize; ++k) {
    m[kLabelSize + k] = n_sim != nullptr ? n_sim[k] : 0u;
    m[kLabelSize + kSessionNonceSize + k] = n_fc != nullptr ? n_fc[k] : 0u;
  }
  std::uint8_t a[kSessionKeySize], b[kSessionKeySize];
  siphash128(master, m, sizeof m, a);
  siphash128(master + kSessionKeySize, m, sizeof m, b);
  for (std::size_t k = 0; k < kSessionKeySize; ++k) out[k] = static_cast<std::uint8_t>(a[k] ^ b[k]);
  wipe(a, sizeof a);
  wipe(b, sizeof b);
}

// The direction a frame travels: 0 simulator -> controller, 1 back.
std::size_t direction(LinkEnd end, bool transmit) noexcept {
  const bool from_simulator = (end == LinkEnd::kSimulator) == transmit;
  return from_simulator ? 0u : 1u;
}

std::uint64_t load_le64(const std::uint8_t* p) noexcept {
  std::uint64_t v = 0;
  for (int k = 7; k >= 0; --k) v = (v << 8) | p[k];
  return v;
}

}  // namespace

bool tags_equal(const std::uint8_t* a, const std::uint8_t* b, std::size_t size) noexcept {
  std::uint8_t difference = 0;
  for (std::size_t k = 0; k < size; ++k)
    difference = static_cast<std::uint8_t>(difference | (a[k] ^ b[k]));
  return difference == 0;
}

// ---- LinkKeys ----------------------------------------------------------------

Status LinkKeys::set_master_key(const std::uint8_t* key, std::size_t size, LinkEnd end) noexcept {
  clear();
  if (key == nullptr || size != kLinkKeySize) return Status::kInvalidArgument;
  std::uint8_t any = 0;
  for (std::size_t k = 0; k < size; ++k) any = static_cast<std::uint8_t>(any | key[k]);
  if (any == 0) return Status::kInvalidArgument;
  for (std::size_t k = 0; k < size; ++k) master_[k] = key[k];
  end_ = end;
  for (std::size_t d = 0; d < 2; ++d) derive(master_, kHelloLabels[d], nullptr, nullptr, hello_[d]);
  enabled_ = true;
  return Status::kOk;
}

void LinkKeys::clear() noexcept {
  wipe(master_, sizeof master_);
  wipe(&hello_[0][0], sizeof hello_);
  wipe(&session_keys_[0][0], sizeof session_keys_);
  wipe(simulator_nonce_, sizeof simulator_nonce_);
  wipe(controller_nonce_, sizeof controller_nonce_);
  enabled_ = false;
  session_ = 0;
}

void LinkKeys::start_session(const std::uint8_t simulator_nonce[kSessionNonceSize],
                             const std::uint8_t controller_nonce[kSessionNonceSize]) noexcept {
  if (!enabled_) return;
  for (std::size_t k = 0; k < kSessionNonceSize; ++k) {
    simulator_nonce_[k] = simulator_nonce[k];
    controller_nonce_[k] = controller_nonce[k];
  }
  for (std::size_t d = 0; d < 2; ++d)
    derive(master_, kSessionLabels[d], simulator_nonce_, controller_nonce_, session_keys_[d]);
  ++session_;
  if (session_ == 0) session_ = 1;  // 0 means "none"
}

const std::uint8_t* LinkKeys::key(MessageType type, bool transmit) const noexcept {
  if (!enabled_) return nullptr;
  const std::size_t d = direction(end_, transmit);
  if (type == MessageType::kHello) return hello_[d];
  return session_ != 0 ? session_keys_[d] : nullptr;
}

// ---- ReplayWindow ------------------------------------------------------------

bool ReplayWindow::fresh(std::uint64_t counter) const noexcept {
  if (counter == 0) return false;
  if (counter > highest_) return true;
  const std::uint64_t behind = highest_ - counter;
  if (behind >= kSize) return false;  // too old to tell: refused
  return ((seen_ >> behind) & 1u) == 0u;
}

void ReplayWindow::accept(std::uint64_t counter) noexcept {
  if (counter > highest_) {
    const std::uint64_t shift = counter - highest_;
    seen_ = shift >= kSize ? 0u : seen_ << shift;
    seen_ |= 1u;
    highest_ = counter;
  } else {
    seen_ |= std::uint64_t{1} << (highest_ - counter);
  }
}

// ---- FrameSigner -------------------------------------------------------------

Status FrameSigner::next(MessageType type, std::uint64_t& counter,
                         const std::uint8_t*& key) noexcept {
  counter = 0;
  key = nullptr;
  if (!keys_.enabled()) return Status::kOk;  // unsigned
  const std::uint8_t* k = keys_.key(type, true);
  if (k == nullptr) return Status::kNotConfigured;
  if (type == MessageType::kHello) {
    if (hello_next_ == 0) return Status::kNotConfigured;  // wrapped: never reused
    counter = hello_next_++;
  } else {
    if (session_ != keys_.session()) {  // a new session's key: counters start at 1
      session_ = keys_.session();
      session_next_ = 1;
    }
    if (session_next_ == 0) return Status::kNotConfigured;
    counter = session_next_++;
  }
  key = k;
  return Status::kOk;
}

// ---- FrameVerifier -----------------------------------------------------------

RejectReason FrameVerifier::check(const std::uint8_t* frame, std::size_t size) noexcept {
  pending_ = false;
  if (size < kHeaderSize + kSignatureSize + kCrcSize) return RejectReason::kTooShort;
  const auto type = static_cast<MessageType>(frame[3] & 0x7Fu);
  const std::uint8_t* key = keys_.key(type, false);
  if (key == nullptr) return RejectReason::kBadMac;  // no key (or no session) can check it
  const std::size_t signed_bytes = size - kCrcSize - kTagSize;  // header, payload, counter
  std::uint8_t tag[kTagSize];
  siphash128(key, frame, signed_bytes, tag);
  if (!tags_equal(tag, frame + signed_bytes, kTagSize)) return RejectReason::kBadMac;
  const std::uint64_t counter = load_le64(frame + signed_bytes - kCounterSize);
  const bool hello = type == MessageType::kHello;
  if (hello) {
    if (counter <= last_hello_) return RejectReason::kReplay;
  } else {
    if (session_ != keys_.session()) {  // a new session: its counters start afresh
      session_ = keys_.session();
      window_.reset();
    }
    if (!window_.fresh(counter)) return RejectReason::kReplay;
  }
  pending_ = true;
  pending_hello_ = hello;
  pending_counter_ = counter;
  return RejectReason::kNone;
}

void FrameVerifier::commit() noexcept {
  if (!pending_) return;
  if (pending_hello_) {
    last_hello_ = pending_counter_;
  } else {
    window_.accept(pending_counter_);
  }
  pending_ = false;
}

void FrameVerifier::reset() noexcept {
  window_.reset();
  session_ = 0;
  last_hello_ = 0;
  pending_ = false;
}

}  // namespace link
}  // namespace hodyn
