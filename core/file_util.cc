#include "core/file_util.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

namespace airscope {

namespace {

// A FIFO opened without a writer reads as empty at once; this waits until
// bytes (or a writer's end of file) arrive, for a bounded time. Linux does
// not report a hang-up on such a FIFO before a writer has been seen, so the
// poll ends on data, on a writer that closed, or on the timeout.
Status WaitForWriter(int fd, const std::string& path, int wait_ms) {
  pollfd p{fd, POLLIN, 0};
  while (true) {
    int ready = ::poll(&p, 1, wait_ms);
    if (ready > 0) return Status::Ok();
    if (ready == 0) {
      return Status::Errorf("{}: a FIFO with no writer: nothing arrived in {} ms (start the writer first)", path,
                            wait_ms);
    }
    if (errno != EINTR) return Status::Errorf("{}: cannot wait for the FIFO: {}", path, std::strerror(errno));
  }
}

}  // namespace

Result<FileText> ReadFileText(const std::string& path, uint64_t max_bytes, int fifo_wait_ms) {
  // O_NONBLOCK: opening a FIFO that has no writer would wait for one
  // forever. A FIFO is given a few seconds for its first bytes instead
  // (WaitForWriter); then reads block again, so it is read to its end.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return Status::Errorf("{}: cannot open: {}", path, std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
    ::close(fd);
    return Status::Errorf("{}: not a regular file", path);
  }
  if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) {  // /dev/zero would be read up to the size limit
    ::close(fd);
    return Status::Errorf("{}: a device, not a file (airscope reads regular files, pipes and FIFOs)", path);
  }
  if (S_ISFIFO(st.st_mode)) {
    if (Status waited = WaitForWriter(fd, path, fifo_wait_ms); !waited.ok()) {
      ::close(fd);
      return waited;
    }
  }
  if (int flags = ::fcntl(fd, F_GETFL); flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
    int err = errno;
    ::close(fd);
    return Status::Errorf("{}: cannot read: {}", path, std::strerror(err));
  }
  if (static_cast<uint64_t>(st.st_size) > max_bytes) {
    ::close(fd);
    return Status::Errorf("{}: {} bytes is over the size limit of {} bytes", path, st.st_size, max_bytes);
  }
  // Room for what fstat promised plus one byte, so reaching the end of a
  // regular file takes no growth; a pipe or FIFO (st_size 0) or a file that
  // grows while we read doubles the buffer as it fills.
  FileText text;
  text.buffer_ = LargeBuffer(static_cast<size_t>(st.st_size) + 1);
  while (true) {
    if (text.size_ == text.buffer_.size()) {
      LargeBuffer grown(text.buffer_.size() * 2 + 65536);
      std::memcpy(grown.data(), text.buffer_.data(), text.size_);
      text.buffer_ = std::move(grown);
    }
    ssize_t n = ::read(fd, static_cast<char*>(text.buffer_.data()) + text.size_, text.buffer_.size() - text.size_);
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      ::close(fd);
      return Status::Errorf("{}: read failed: {}", path, std::strerror(err));
    }
    if (n == 0) break;
    text.size_ += static_cast<size_t>(n);
    if (text.size_ > max_bytes) {
      ::close(fd);
      return Status::Errorf("{}: over the size limit of {} bytes", path, max_bytes);
    }
  }
  ::close(fd);
  return text;
}

Result<std::string> ReadFile(const std::string& path, uint64_t max_bytes) {
  Result<FileText> text = ReadFileText(path, max_bytes);
  if (!text.ok()) return text.status();
  return std::string(text->view());
}

Status WriteFileAtomically(const std::string& path, std::string_view contents) {
  std::string tmp = path + ".tmp." + std::to_string(::getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Status::Errorf("{}: cannot write: {}", path, std::strerror(errno));
  size_t done = 0;
  while (done < contents.size()) {
    ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      return Status::Errorf("{}: write failed: {}", path, std::strerror(err));
    }
    done += static_cast<size_t>(n);
  }
  if (::close(fd) != 0 || ::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    return Status::Errorf("{}: cannot write: {}", path, std::strerror(err));
  }
  return Status::Ok();
}

}  // namespace airscope
