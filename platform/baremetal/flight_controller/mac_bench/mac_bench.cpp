// mac_bench.cpp — what a MAC costs on the Cortex-M targets (docs/link-security.md,
// "Why SipHash"): SipHash-2-4-128 (the link's, hodyn/link/siphash.hpp),
// HMAC-SHA-256 and keyed BLAKE2s-128 (mac_alternatives.hpp) over the bytes a
// signed link MACs per controller step: the SENSORS (594 B) and REFERENCE
// (758 B) frames it checks and the COMMAND (210 B) it signs (header + payload +
// counter). Run under QEMU with -icount shift=0 (run_mac_bench.sh): one
// instruction = 1 ns of virtual time, so SysTick cycles convert to
// instructions (a calibration loop of known length checks it). First checks
// each primitive against its published test vector on the target itself.
#include <cstddef>
#include <cstdint>

#include "hodyn/baremetal/runtime.hpp"
#include "hodyn/link/siphash.hpp"
#include "mac_alternatives.hpp"

namespace {

namespace bm = hodyn::baremetal;
namespace mb = hodyn::mac_bench;

/// Exactly 2 instructions per iteration (subs + bne), `iterations` >= 1.
__attribute__((noinline)) void count_down(std::uint32_t iterations) noexcept {
  __asm volatile(
      "1: subs %0, %0, #1\n"
      "   bne 1b\n"
      : "+r"(iterations)
      :
      : "cc");
}

bool equal(const std::uint8_t* a, const std::uint8_t* b, std::size_t n) {
  for (std::size_t k = 0; k < n; ++k)
    if (a[k] != b[k]) return false;
  return true;
}

bool check(const char* what, bool ok) {
  bm::console().print(ok ? "ok   " : "FAIL ").print(what).print('\n');
  return ok;
}

std::uint8_t message[800];
std::uint8_t key[32];
volatile std::uint8_t sink;  // keeps the tags alive

constexpr std::size_t kSizes[3] = {594, 758, 210};  // SENSORS, REFERENCE checked; COMMAND signed
constexpr int kRepeats = 5;

template <typename Mac>
std::uint64_t best_cycles(Mac&& mac, std::size_t size) {
  std::uint64_t best = ~std::uint64_t{0};
  for (int r = 0; r < kRepeats; ++r) {
    const std::uint64_t t0 = bm::cycles();
    mac(size);
    const std::uint64_t spent = bm::cycles() - t0;
    if (spent < best) best = spent;
  }
  return best;
}

}  // namespace

int main() {
  const std::uint32_t clock_hz = bm::board::core_clock_hz();
  if (!bm::systick_init(clock_hz, 1000)) return 1;
  // 1 cycle = 1e9 / clock_hz instructions under -icount shift=0.
  const std::uint64_t per_cycle = 1000000000ull / clock_hz;
  const std::uint64_t t0 = bm::cycles();
  count_down(100000);
  const std::uint64_t t1 = bm::cycles();
  count_down(2100000);
  const std::uint64_t t2 = bm::cycles();
  const std::uint64_t measured = ((t2 - t1) - (t1 - t0)) * per_cycle;  // 4 000 000 expected
  bm::console()
      .print("mac bench on ")
      .print(bm::board::name())
      .print(": calibration 4000000 -> ")
      .print(static_cast<unsigned long long>(measured))
      .print(" instructions\n");

  bool ok = measured > 3960000 && measured < 4040000;
  for (std::size_t k = 0; k < sizeof message; ++k) message[k] = static_cast<std::uint8_t>(k);
  // Published vectors: SipHash-2-4-128 vectors_sip128[15] (key 00..0f, message
  // 00..0e); HMAC-SHA-256 RFC 4231 test case 2; BLAKE2s-256("abc") RFC 7693
  // appendix B; keyed BLAKE2s-128 (key 00..1f, message 00..63) from Python's
  // hashlib.blake2s.
  std::uint8_t tag[32];
  const std::uint8_t sip15[16] = {0x54, 0x93, 0xe9, 0x99, 0x33, 0xb0, 0xa8, 0x11,
                                  0x7e, 0x08, 0xec, 0x0f, 0x97, 0xcf, 0xc3, 0xd9};
  hodyn::link::siphash128(message, message, 15, tag);
  ok &= check("SipHash-2-4-128 published vector", equal(tag, sip15, 16));
  mb::HmacSha256 hmac;
  hmac.set_key(reinterpret_cast<const std::uint8_t*>("Jefe"), 4);
  hmac.mac(reinterpret_cast<const std::uint8_t*>("what do ya want for nothing?"), 28, tag);
  const std::uint8_t rfc4231[32] = {0x5b, 0xdc, 0xc1, 0x46, 0xbf, 0x60, 0x75, 0x4e,
                                    0x6a, 0x04, 0x24, 0x26, 0x08, 0x95, 0x75, 0xc7,
                                    0x5a, 0x00, 0x3f, 0x08, 0x9d, 0x27, 0x39, 0x83,
                                    0x9d, 0xec, 0x58, 0xb9, 0x64, 0xec, 0x38, 0x43};
  ok &= check("HMAC-SHA-256 RFC 4231 test case 2", equal(tag, rfc4231, 32));
  mb::Blake2s128::hash256(reinterpret_cast<const std::uint8_t*>("abc"), 3, tag);
  const std::uint8_t abc[32] = {0x50, 0x8c, 0x5e, 0x8c, 0x32, 0x7c, 0x14, 0xe2, 0xe1, 0xa7, 0x2b,
                                0xa3, 0x4e, 0xeb, 0x45, 0x2f, 0x37, 0x45, 0x8b, 0x20, 0x9e, 0xd6,
                                0x3a, 0x29, 0x4d, 0x99, 0x9b, 0x4c, 0x86, 0x67, 0x59, 0x82};
  ok &= check("BLAKE2s-256 RFC 7693 \"abc\"", equal(tag, abc, 32));
  mb::Blake2s128 blake;
  blake.set_key(message, 32);
  blake.mac(message, 100, tag);
  const std::uint8_t keyed[16] = {0x0b, 0x67, 0xd3, 0x3f, 0x8b, 0x85, 0x9c, 0x31,
                                  0x57, 0xfb, 0xab, 0xd9, 0xe6, 0xe4, 0x7e, 0xd0};
  ok &= check("keyed BLAKE2s-128", equal(tag, keyed, 16));

  for (std::size_t k = 0; k < sizeof key; ++k) key[k] = static_cast<std::uint8_t>(0xA5 ^ (k * 29));
  hmac.set_key(key, 32);
  blake.set_key(key, 32);
  struct Row {
    const char* name;
    std::uint64_t cycles[3];
  } rows[4] = {};
  for (std::size_t s = 0; s < 3; ++s) {
    const std::size_t size = kSizes[s];
    rows[0].name = "SipHash-2-4-128";
    rows[0].cycles[s] = best_cycles(
        [&](std::size_t n) {
          hodyn::link::siphash128(key, message, n, tag);
          sink = tag[0];
        },
        size);
    rows[1].name = "SipHash-2-4-128, fed byte by byte (the signing path)";
    rows[1].cycles[s] = best_cycles(
        [&](std::size_t n) {
          hodyn::link::SipHash128 mac(key);
          for (std::size_t k = 0; k < n; ++k) mac.update(message[k]);
          mac.finish(tag);
          sink = tag[0];
        },
        size);
    rows[2].name = "HMAC-SHA-256 (key blocks precomputed)";
    rows[2].cycles[s] = best_cycles(
        [&](std::size_t n) {
          hmac.mac(message, n, tag);
          sink = tag[0];
        },
        size);
    rows[3].name = "keyed BLAKE2s-128 (key block precomputed)";
    rows[3].cycles[s] = best_cycles(
        [&](std::size_t n) {
          blake.mac(message, n, tag);
          sink = tag[0];
        },
        size);
  }
  for (const Row& row : rows) {
    std::uint64_t total = 0;
    bm::console().print("MAC ").print(row.name).print(':');
    for (std::size_t s = 0; s < 3; ++s) {
      const std::uint64_t instructions = row.cycles[s] * per_cycle;
      total += instructions;
      bm::console()
          .print(' ')
          .print(static_cast<unsigned long>(kSizes[s]))
          .print(" B ")
          .print(static_cast<unsigned long long>(instructions));
    }
    bm::console()
        .print("; per step (594 + 758 + 210 B) ")
        .print(static_cast<unsigned long long>(total))
        .print(" instructions, ")
        .print(static_cast<unsigned long long>(total * 100 / (594 + 758 + 210)))
        .print(" per 100 bytes\n");
  }
  bm::console().print(ok ? "mac bench: ok\n" : "mac bench: FAILED\n");
  bm::console().flush();
  return ok ? 0 : 1;
}
