// The key file of a signed link (hodyn/posix/link_key.hpp): exactly 32
// bytes, a regular file, no access for group or others (0600 or 0400), not
// all zeros; every refusal names the file and the reason, never the key's
// bytes, and leaves the key buffer zeroed. Also random_bytes and the wall
// clock counter.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "hodyn/posix/link_key.hpp"

namespace hodyn {
namespace {

using posix::KeyFileError;

class KeyFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/hodyn-key-test.XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    for (const std::string& f : files_) std::remove(f.c_str());
    rmdir(dir_.c_str());
  }
  std::string write(const char* name, std::size_t size, mode_t mode, std::uint8_t fill = 0x5A) {
    const std::string path = dir_ + "/" + name;
    FILE* f = std::fopen(path.c_str(), "wb");
    for (std::size_t k = 0; k < size; ++k) std::fputc(fill + static_cast<int>(k), f);
    std::fclose(f);
    chmod(path.c_str(), mode);
    files_.push_back(path);
    return path;
  }
  // Reads `path`, expects a refusal for `why` whose message names the file.
  void expect_refused(const std::string& path, KeyFileError why, const char* words) {
    std::uint8_t key[32];
    std::memset(key, 0xAB, sizeof key);
    KeyFileError error = KeyFileError::kNone;
    char message[512];
    EXPECT_EQ(posix::read_link_key(path.c_str(), key, error, message, sizeof message),
              Status::kInvalidArgument);
    EXPECT_EQ(error, why) << message;
    EXPECT_NE(std::strstr(message, path.c_str()), nullptr) << message;
    EXPECT_NE(std::strstr(message, words), nullptr) << message;
    for (std::uint8_t b : key) EXPECT_EQ(b, 0);  // nothing of a refused key is kept
  }

  std::string dir_;
  std::vector<std::string> files_;
};

TEST_F(KeyFileTest, A32ByteOwnerOnlyFileIsRead) {
  for (mode_t mode : {mode_t{0600}, mode_t{0400}}) {
    const std::string path = write(mode == 0600 ? "k600" : "k400", 32, mode);
    std::uint8_t key[32] = {};
    char message[256];
    ASSERT_EQ(posix::read_link_key(path.c_str(), key, message, sizeof message), Status::kOk)
        << message;
    for (int k = 0; k < 32; ++k) EXPECT_EQ(key[k], static_cast<std::uint8_t>(0x5A + k));
  }
}

TEST_F(KeyFileTest, WrongSizesAreRefused) {
  expect_refused(write("short", 31, 0600), KeyFileError::kBadSize, "31 bytes");
  expect_refused(write("long", 33, 0600), KeyFileError::kBadSize, "33 bytes");
  expect_refused(write("empty", 0, 0600), KeyFileError::kBadSize, "0 bytes");
}

TEST_F(KeyFileTest, GroupOrOthersAccessIsRefused) {
  expect_refused(write("m644", 32, 0644), KeyFileError::kBadMode, "mode 0644");
  expect_refused(write("m640", 32, 0640), KeyFileError::kBadMode, "mode 0640");
  expect_refused(write("m604", 32, 0604), KeyFileError::kBadMode, "mode 0604");
  expect_refused(write("m601", 32, 0601), KeyFileError::kBadMode, "chmod 600");
  expect_refused(write("m200", 32, 0200), KeyFileError::kBadMode, "mode 0200");  // not readable
}

TEST_F(KeyFileTest, MissingDirectoryAndZeroKeysAreRefused) {
  expect_refused(dir_ + "/does-not-exist", KeyFileError::kMissing, "No such file");
  expect_refused(dir_, KeyFileError::kNotRegular, "not a regular file");
  const std::string zero = dir_ + "/allzero";
  FILE* f = std::fopen(zero.c_str(), "wb");
  for (int k = 0; k < 32; ++k) std::fputc(0, f);
  std::fclose(f);
  chmod(zero.c_str(), 0600);
  files_.push_back(zero);
  expect_refused(zero, KeyFileError::kAllZero, "all zeros");
}

TEST(LinkEntropy, RandomBytesDifferAndTheClockCounts) {
  std::uint8_t a[16] = {}, b[16] = {};
  ASSERT_EQ(posix::random_bytes(a, sizeof a), Status::kOk);
  ASSERT_EQ(posix::random_bytes(b, sizeof b), Status::kOk);
  EXPECT_NE(std::memcmp(a, b, sizeof a), 0);  // 2^-128 chance of a false failure
  const std::uint64_t t0 = posix::wall_clock_ns();
  EXPECT_GT(t0, 1'600'000'000ull * 1'000'000'000ull);  // after 2020
  EXPECT_GE(posix::wall_clock_ns(), t0);
}

}  // namespace
}  // namespace hodyn
