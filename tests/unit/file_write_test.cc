// WriteFile: what `dump`, `timeline --json` and the automatic dumps write
// through. Each case is a way the old temp-file-and-rename writer replaced,
// lost or exposed something (issue 12, item 2).
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "core/file_util.h"
#include "core/inflight_temps.h"
#include "fifo_test_util.h"

namespace airscope {
namespace {

namespace fs = std::filesystem;

class FileWriteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("airscope_file_write_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  // Files whose names start with ".airscope-": temp files left behind.
  int LeftoverTemps(const fs::path& where) const {
    int n = 0;
    for (const auto& entry : fs::directory_iterator(where))
      n += entry.path().filename().string().starts_with(".airscope-");
    return n;
  }
  fs::path dir_;
};

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

mode_t ModeOf(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

TEST_F(FileWriteTest, ReplacesARegularFileKeepingItsMode) {
  std::string path = Path("secret.txt");
  std::ofstream(path) << "old";
  ASSERT_EQ(::chmod(path.c_str(), 0600), 0);
  ASSERT_TRUE(WriteFile(path, "new").ok());
  EXPECT_EQ(Slurp(path), "new");
  EXPECT_EQ(ModeOf(path), 0600u);  // was 0644 after the old writer
  EXPECT_EQ(LeftoverTemps(dir_), 0);
}

TEST_F(FileWriteTest, ANewFileGetsTheUmaskMode) {
  mode_t old_mask = ::umask(027);
  Status written = WriteFile(Path("fresh.txt"), "x");
  ::umask(old_mask);
  ASSERT_TRUE(written.ok()) << written.message();
  EXPECT_EQ(ModeOf(Path("fresh.txt")), 0640u);
}

TEST_F(FileWriteTest, FollowsASymlinkAndKeepsIt) {
  std::string target = Path("real.txt");
  std::string link = Path("link.txt");
  std::ofstream(target) << "old";
  ASSERT_EQ(::symlink("real.txt", link.c_str()), 0);
  ASSERT_TRUE(WriteFile(link, "through the link").ok());
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(Slurp(target), "through the link");
}

TEST_F(FileWriteTest, ADanglingSymlinkCreatesItsTarget) {
  fs::create_directories(dir_ / "sub");
  std::string link = Path("dangling");
  ASSERT_EQ(::symlink("sub/made.txt", link.c_str()), 0);
  ASSERT_TRUE(WriteFile(link, "made").ok());
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(Slurp(Path("sub/made.txt")), "made");
}

TEST_F(FileWriteTest, ADeviceIsWrittenInPlaceNotReplaced) {
  // Straight at it (as root the old writer renamed a regular file over it),
  // and through a symlink.
  ASSERT_TRUE(WriteFile("/dev/null", "discarded").ok());
  std::string link = Path("null");
  ASSERT_EQ(::symlink("/dev/null", link.c_str()), 0);
  Status written = WriteFile(link, "discarded");
  ASSERT_TRUE(written.ok()) << written.message();
  struct stat st {};
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(LeftoverTemps(dir_), 0);
}

TEST_F(FileWriteTest, AFifoIsWrittenInPlaceAndOneWithoutAReaderIsAnError) {
  std::string fifo = Path("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  Status lonely = WriteFile(fifo, "nobody");
  ASSERT_FALSE(lonely.ok());
  EXPECT_NE(lonely.message().find("no reader"), std::string::npos) << lonely.message();
  testing_fifo::FifoReaderProcess reader(fifo);
  Status written;
  for (int attempt = 0; attempt < 200; ++attempt) {  // until the reader has opened it
    written = WriteFile(fifo, "through the pipe");
    if (written.ok()) break;
    ::usleep(10000);
  }
  ASSERT_TRUE(written.ok()) << written.message();  // (the reader's destructor ends it)
  EXPECT_EQ(reader.Finish(), "through the pipe");
  struct stat st {};
  ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

TEST_F(FileWriteTest, ALongNameFits) {
  std::string name(250, 'n');
  Status written = WriteFile(Path(name), "long");
  ASSERT_TRUE(written.ok()) << written.message();  // the old PATH.tmp.PID went past NAME_MAX
  EXPECT_EQ(Slurp(Path(name)), "long");
}

TEST_F(FileWriteTest, APlantedSymlinkAtTheOldTempNameIsNotFollowed) {
  std::string victim = Path("victim.txt");
  std::ofstream(victim) << "precious";
  std::string path = Path("out.txt");
  std::string planted = path + ".tmp." + std::to_string(::getpid());
  ASSERT_EQ(::symlink(victim.c_str(), planted.c_str()), 0);
  ASSERT_TRUE(WriteFile(path, "dump").ok());
  EXPECT_EQ(Slurp(victim), "precious");
  EXPECT_EQ(Slurp(path), "dump");
}

TEST_F(FileWriteTest, MakesMissingDirectories) {
  std::string path = Path("a/b/c/out.txt");
  ASSERT_TRUE(WriteFile(path, "deep").ok());
  EXPECT_EQ(Slurp(path), "deep");
}

TEST_F(FileWriteTest, RefusesADirectoryAndAFileInThePlaceOfADirectory) {
  Status dir = WriteFile(dir_.string(), "x");
  ASSERT_FALSE(dir.ok());
  EXPECT_NE(dir.message().find("is a directory"), std::string::npos) << dir.message();
  std::ofstream(Path("plain")) << "";
  Status under = WriteFile(Path("plain/out.txt"), "x");
  ASSERT_FALSE(under.ok());
  EXPECT_NE(under.message().find("not a directory"), std::string::npos) << under.message();
}

TEST_F(FileWriteTest, OverTheFileSizeLimitItFailsCleanlyAndKeepsTheOldFile) {
  std::string path = Path("limited.txt");
  std::ofstream(path) << "old";
  // In a child: RLIMIT_FSIZE would limit this test process too.
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::signal(SIGXFSZ, SIG_IGN);  // as airscope's main does
    rlimit limit{4096, 4096};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    Status written = WriteFile(path, std::string(100000, 'x'));
    bool said = !written.ok() && written.message().find("ulimit -f") != std::string::npos;
    ::_exit(said ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(Slurp(path), "old");
  EXPECT_EQ(LeftoverTemps(dir_), 0);
}

TEST_F(FileWriteTest, ADirectoryThatTakesNoFilesIsAnErrorThatNamesThePath) {
  // /proc/self refuses new files even to root, as a read-only directory does to others.
  Status written = WriteFile("/proc/self/airscope_out.txt", "x");
  ASSERT_FALSE(written.ok());
  EXPECT_EQ(written.message().rfind("/proc/self/airscope_out.txt: cannot write", 0), 0u) << written.message();
}

TEST_F(FileWriteTest, AFullDeviceIsAnError) {
  Status written = WriteFile("/dev/full", "x");
  ASSERT_FALSE(written.ok());
  EXPECT_NE(written.message().find("No space left on device"), std::string::npos) << written.message();
}

// What a SIGTERM, SIGHUP or SIGQUIT handler removes (tests/signals/temp_cleanup.sh
// sends the real signals to the binary): the temps in flight, a staging folder
// with everything in it, and nothing once they are forgotten.
TEST_F(FileWriteTest, TempsInFlightAreRemovedOnRequestAndForgottenOnceDone) {
  EXPECT_EQ(InFlightTempCount(), 0);
  std::string file = Path(".airscope-XXXXXX");
  InFlightTemp file_temp;
  Result<int> fd = CreateTempFile(file, file_temp);
  ASSERT_TRUE(fd.ok()) << fd.status().message();
  ::close(*fd);
  std::string dir = Path(".airscope-report-XXXXXX");
  InFlightTemp dir_temp;
  ASSERT_TRUE(CreateTempDir(dir, dir_temp).ok());
  ASSERT_TRUE(WriteFile(dir + "/data/deep/page.js", "x").ok());
  ASSERT_TRUE(WriteFile(dir + "/index.html", "x").ok());
  EXPECT_EQ(InFlightTempCount(), 2);
  std::string kept = Path("kept.txt");
  std::ofstream(kept) << "not in flight";
  RemoveInFlightTemps();
  EXPECT_FALSE(fs::exists(file));
  EXPECT_FALSE(fs::exists(dir));
  EXPECT_EQ(Slurp(kept), "not in flight");
  file_temp.Forget();
  dir_temp.Forget();
  EXPECT_EQ(InFlightTempCount(), 0);
  // Once forgotten (renamed into place), a temp is no longer removed.
  std::string done = Path(".airscope-XXXXXX");
  {
    InFlightTemp temp;
    Result<int> made = CreateTempFile(done, temp);
    ASSERT_TRUE(made.ok());
    ::close(*made);
  }
  EXPECT_EQ(InFlightTempCount(), 0);
  RemoveInFlightTemps();
  EXPECT_TRUE(fs::exists(done));
}

}  // namespace
}  // namespace airscope
