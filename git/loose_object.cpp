// Loose object: written as git writes one (see loose_object.hpp).
#include "git/loose_object.hpp"

#include "base/background.hpp"
#include "base/write_all.hpp"
#include "git/deflate.hpp"
#include "git/libgit2.hpp"
#include "git/sha1.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace engram::git::detail {

namespace {

namespace fs = std::filesystem;

int fail(const std::string& message) {
  git_error_set_str(GIT_ERROR_OS, message.c_str());
  return GIT_ERROR;
}

// Writes `bytes` to a new file in `folder` and renames it to `name`, read-only
// as git leaves objects; flushed to the device first when `flushed` (a file
// that replaces one already flushed).
int put_file(const fs::path& folder, const fs::path& name, const std::string& bytes,
             bool flushed = false) {
  if (::mkdir(folder.c_str(), 0777) != 0 && errno != EEXIST) {
    return fail("cannot create the object folder '" + folder.string() + "': " +
                std::strerror(errno));
  }
  std::string temporary = (folder / "tmp_object_engram_XXXXXX").string();
  const int descriptor = ::mkostemp(temporary.data(), O_CLOEXEC);
  if (descriptor < 0) {
    return fail("cannot create a temporary object in '" + folder.string() + "': " +
                std::strerror(errno));
  }
  const bool written = write_all(descriptor, bytes) && ::fchmod(descriptor, 0444) == 0 &&
                       (!flushed || ::fdatasync(descriptor) == 0);
  const int error = errno;
  if (::close(descriptor) != 0 || !written || ::rename(temporary.c_str(), name.c_str()) != 0) {
    const int why = written ? errno : error;
    ::unlink(temporary.c_str());
    return fail("cannot write the object '" + name.string() + "': " + std::strerror(why));
  }
  return 0;
}

} // namespace

LaterDeflate::~LaterDeflate() = default; // m_helper joins

void LaterDeflate::add(fs::path file, std::string header, std::string bytes) {
  m_queued.push_back(Queued{std::move(file), std::move(header), std::move(bytes)});
}

void LaterDeflate::start() {
  if (m_queued.empty()) {
    return;
  }
  wait();
  m_helper = std::jthread([queued = std::move(m_queued)] {
    run_in_background();
    for (const auto& [file, header, bytes] : queued) {
      // Flushed before the rename: the stored file it replaces was flushed
      // by the commit, and a crash must leave one or the other whole. What
      // fails leaves the stored file, the same object.
      std::string deflated;
      if (put_deflated(deflated, header + bytes)) {
        (void)put_file(file.parent_path(), file, deflated, true);
      }
    }
  });
  m_queued.clear();
}

void LaterDeflate::wait() {
  if (m_helper.joinable()) {
    m_helper.join();
  }
}

int write_loose(git_repository* repository, git_object_t type, std::string bytes, git_oid& out,
                LaterDeflate* later) {
  std::string header = object_header(type, bytes.size());
  if (!sha1({header, bytes}, out.id)) {
    return fail("cannot hash an object");
  }
  Owned<git_odb, git_odb_free> odb;
  if (const int code = git_repository_odb(&odb.pointer, repository); code != 0) {
    return code;
  }
  if (git_odb_exists(odb.pointer, &out) != 0) {
    return 0;
  }
  git_buf folder = GIT_BUF_INIT;
  if (const int code = git_repository_item_path(&folder, repository, GIT_REPOSITORY_ITEM_OBJECTS);
      code != 0) {
    return code;
  }
  const fs::path objects = folder.ptr;
  git_buf_dispose(&folder);
  const std::string hex = to_hex(out);
  const fs::path name = objects / hex.substr(0, 2) / hex.substr(2);
  if (later != nullptr && bytes.size() >= LaterDeflate::k_from) {
    // One buffer per thread: 1.2 MB made afresh for each commit is 300
    // pages for the kernel to clear.
    thread_local std::string stored;
    stored.clear();
    put_stored(stored, {header, bytes});
    if (const int code = put_file(name.parent_path(), name, stored); code != 0) {
      return code;
    }
    later->add(name, std::move(header), std::move(bytes));
    return 0;
  }
  std::string deflated;
  if (!put_deflated(deflated, header + bytes)) {
    return fail("cannot deflate an object");
  }
  return put_file(name.parent_path(), name, deflated);
}

} // namespace engram::git::detail
