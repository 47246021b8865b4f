// The shared key, nonces and counters of a desktop link end
// (hodyn/posix/link_key.hpp).
#include "hodyn/posix/link_key.hpp"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <ctime>

namespace hodyn {
namespace posix {
namespace {

void say(char* message, std::size_t size, const char* format, ...) noexcept {
  if (message == nullptr || size == 0) return;
  va_list args;
  va_start(args, format);
  std::vsnprintf(message, size, format, args);
  va_end(args);
}

Status refuse(KeyFileError why, KeyFileError& error, std::uint8_t* key) noexcept {
  wipe(key, kLinkKeyFileSize);
  error = why;
  return Status::kInvalidArgument;
}

}  // namespace

void wipe(void* data, std::size_t size) noexcept {
  volatile unsigned char* p = static_cast<volatile unsigned char*>(data);
  for (std::size_t k = 0; k < size; ++k) p[k] = 0;
}

Status read_link_key(const char* path, std::uint8_t key[kLinkKeyFileSize], KeyFileError& error,
                     char* message, std::size_t message_size) noexcept {
  error = KeyFileError::kNone;
  say(message, message_size, "%s", "");
  if (key == nullptr) return Status::kInvalidArgument;
  wipe(key, kLinkKeyFileSize);
  if (path == nullptr || path[0] == '\0') {
    say(message, message_size, "--key-file needs a file name");
    return refuse(KeyFileError::kMissing, error, key);
  }
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0) {
    const int e = errno;
    say(message, message_size, "key file %s: %s", path, std::strerror(e));
    return refuse(e == ENOENT ? KeyFileError::kMissing : KeyFileError::kUnreadable, error, key);
  }
  struct stat st {};
  KeyFileError why = KeyFileError::kNone;
  if (::fstat(fd, &st) != 0) {
    say(message, message_size, "key file %s: %s", path, std::strerror(errno));
    why = KeyFileError::kUnreadable;
  } else if (!S_ISREG(st.st_mode)) {
    say(message, message_size, "key file %s is not a regular file", path);
    why = KeyFileError::kNotRegular;
  } else if ((st.st_mode & 077) != 0 || (st.st_mode & S_IRUSR) == 0) {
    say(message, message_size,
        "key file %s has mode %04o; it must be readable by its owner only (chmod 600 %s)", path,
        static_cast<unsigned>(st.st_mode & 07777), path);
    why = KeyFileError::kBadMode;
  } else if (st.st_size != static_cast<off_t>(kLinkKeyFileSize)) {
    say(message, message_size, "key file %s holds %lld bytes; a key is exactly %u bytes", path,
        static_cast<long long>(st.st_size), static_cast<unsigned>(kLinkKeyFileSize));
    why = KeyFileError::kBadSize;
  } else {
    std::size_t got = 0;
    while (got < kLinkKeyFileSize) {
      const ssize_t n = ::read(fd, key + got, kLinkKeyFileSize - got);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      got += static_cast<std::size_t>(n);
    }
    std::uint8_t extra = 0;
    if (got != kLinkKeyFileSize || ::read(fd, &extra, 1) != 0) {  // grew or shrank meanwhile
      say(message, message_size, "key file %s: could not read exactly %u bytes", path,
          static_cast<unsigned>(kLinkKeyFileSize));
      why = KeyFileError::kBadSize;
    } else {
      std::uint8_t any = 0;
      for (std::size_t k = 0; k < kLinkKeyFileSize; ++k)
        any = static_cast<std::uint8_t>(any | key[k]);
      if (any == 0) {
        say(message, message_size, "key file %s is all zeros, which is not a key", path);
        why = KeyFileError::kAllZero;
      }
    }
  }
  ::close(fd);
  if (why != KeyFileError::kNone) return refuse(why, error, key);
  return Status::kOk;
}

Status read_link_key(const char* path, std::uint8_t key[kLinkKeyFileSize], char* message,
                     std::size_t message_size) noexcept {
  KeyFileError error = KeyFileError::kNone;
  return read_link_key(path, key, error, message, message_size);
}

Status random_bytes(std::uint8_t* out, std::size_t size) noexcept {
  if (out == nullptr && size > 0) return Status::kInvalidArgument;
  std::size_t got = 0;
  while (got < size) {
    const ssize_t n = ::getrandom(out + got, size - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Status::kInvalidArgument;
    got += static_cast<std::size_t>(n);
  }
  return Status::kOk;
}

std::uint64_t wall_clock_ns() noexcept {
  timespec t{};
  clock_gettime(CLOCK_REALTIME, &t);
  return static_cast<std::uint64_t>(t.tv_sec) * 1'000'000'000u +
         static_cast<std::uint64_t>(t.tv_nsec);
}

}  // namespace posix
}  // namespace hodyn
