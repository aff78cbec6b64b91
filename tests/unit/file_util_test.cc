// ReadFileText / ReadFile: a regular file in one read, a FIFO (no size up
// front) read to its end through the growth path, and clear errors for a
// missing file, a directory, a file over the limit, a FIFO without a writer
// and a device.
#include "core/file_util.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/line_reader.h"
#include "fifo_test_util.h"

namespace airscope {
namespace {

namespace fs = std::filesystem;

class FileUtilTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("airscope_file_util_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

std::string Pattern(size_t size) {
  std::string text(size, '\0');
  for (size_t i = 0; i < size; ++i) text[i] = static_cast<char>('a' + i % 26);
  return text;
}

TEST_F(FileUtilTest, ReadsARegularFileWhole) {
  std::string path = (dir_ / "big.txt").string();
  std::string contents = Pattern(3 << 20);  // past LargeBuffer's mapping threshold
  ASSERT_TRUE(WriteFile(path, contents).ok());
  Result<FileText> text = ReadFileText(path);
  ASSERT_TRUE(text.ok()) << text.status().message();
  EXPECT_EQ(text->view(), contents);
  Result<std::string> copy = ReadFile(path);
  ASSERT_TRUE(copy.ok());
  EXPECT_EQ(*copy, contents);
}

// A big file is mapped (MappedFile): the bytes stay readable after the file
// is removed, and releasing the part a parser is done with leaves the rest
// as it was.
TEST_F(FileUtilTest, AMappedFileOutlivesItsNameAndReleasesItsHead) {
  std::string path = (dir_ / "mapped.txt").string();
  std::string contents = Pattern(5 << 20);
  ASSERT_TRUE(WriteFile(path, contents).ok());
  Result<FileText> text = ReadFileText(path);
  ASSERT_TRUE(text.ok()) << text.status().message();
  fs::remove(path);
  EXPECT_EQ(text->view(), contents);
  size_t half = contents.size() / 2 + 123;
  text->ReleaseBefore(half);
  EXPECT_EQ(text->view().size(), contents.size());
  EXPECT_EQ(text->view().substr(half), std::string_view(contents).substr(half));
}

TEST_F(FileUtilTest, ReadsAFifoToItsEnd) {
  std::string path = (dir_ / "fifo").string();
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  std::string contents = Pattern(300000);  // several growths from st_size 0
  testing_fifo::FifoWriter writer(path, contents);
  Result<FileText> text = ReadFileText(path);
  EXPECT_TRUE(writer.Finish());
  ASSERT_TRUE(text.ok()) << text.status().message();
  EXPECT_EQ(text->view(), contents);
}

// Opening a FIFO nobody writes to used to block for ever; /dev/zero was
// read up to the size limit (2 GiB and 20 s) before being refused.
TEST_F(FileUtilTest, AFifoWithoutWriterAndADeviceAreRefusedPromptly) {
  std::string path = (dir_ / "lonely_fifo").string();
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  Result<FileText> text = ReadFileText(path, 1 << 20, 50);
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().message(),
            path + ": a FIFO with no writer: nothing arrived in 50 ms (start the writer first)");
  text = ReadFileText("/dev/zero");
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().message(), "/dev/zero: a device, not a file (airscope reads regular files, pipes and FIFOs)");
}

// Every reader opens as ReadFileText does (issue 29 item 2): the line reader
// of logs (TORCH_LOGS, TORCH_TRACE, and the logs inside a TORCH_COMPILE_DEBUG
// tree) blocked for ever in fopen on a FIFO without a writer, and read
// /dev/zero up to the size limit.
TEST_F(FileUtilTest, TheLineReaderOpensAsEveryReaderDoes) {
  std::string path = (dir_ / "lonely_log").string();
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  size_t lines = 0;
  auto count = [&lines](std::string_view) { ++lines; };
  {
    testing_fifo::FifoUnblocker unblock({path}, 2000);  // only for the old code's blocked fopen
    Status status = ReadFileLines(path, 1 << 20, count, 50);
    EXPECT_EQ(status.message(), path + ": a FIFO with no writer: nothing arrived in 50 ms (start the writer first)");
  }
  Status device = ReadFileLines("/dev/zero", 1 << 20, count);
  EXPECT_EQ(device.message(), "/dev/zero: a device, not a file (airscope reads regular files, pipes and FIFOs)");
  EXPECT_EQ(lines, 0u);
  // A FIFO with a writer is read to its end, line by line.
  testing_fifo::FifoWriter writer(path, "one\ntwo\nthree");
  std::vector<std::string> got;
  Status read = ReadFileLines(path, 1 << 20, [&got](std::string_view line) { got.emplace_back(line); });
  EXPECT_TRUE(writer.Finish());
  EXPECT_TRUE(read.ok()) << read.message();
  EXPECT_EQ(got, (std::vector<std::string>{"one", "two", "three"}));
}

// What a tree reader asks before it opens anything (it opens only regular files).
TEST_F(FileUtilTest, NonRegularFileKindNamesWhatAPathIs) {
  std::string fifo = (dir_ / "fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string file = (dir_ / "file").string();
  ASSERT_TRUE(WriteFile(file, "x").ok());
  std::string link = (dir_ / "zero").string();
  ASSERT_EQ(::symlink("/dev/zero", link.c_str()), 0);
  EXPECT_EQ(NonRegularFileKind(fifo), "a FIFO");
  EXPECT_EQ(NonRegularFileKind(link), "a character device");  // symlinks are followed
  EXPECT_EQ(NonRegularFileKind(dir_.string()), "a directory");
  EXPECT_EQ(NonRegularFileKind(file), "");
  EXPECT_EQ(NonRegularFileKind((dir_ / "missing").string()), "");
}

TEST_F(FileUtilTest, SaysWhyItCannotRead) {
  std::string missing = (dir_ / "missing.txt").string();
  Result<FileText> text = ReadFileText(missing);
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().message(), missing + ": cannot open: No such file or directory");

  text = ReadFileText(dir_.string());
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().message(), dir_.string() + ": not a regular file");

  std::string path = (dir_ / "ten.txt").string();
  ASSERT_TRUE(WriteFile(path, "0123456789").ok());
  text = ReadFileText(path, 4);
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().message(), path + ": 10 bytes is over the size limit of 4 bytes");
}

}  // namespace
}  // namespace airscope
