// Loose object: written as git writes one (see loose_object.hpp).
#include "git/loose_object.hpp"

#include "base/sha1.hpp"
#include "base/write_all.hpp"
#include "git/deflate.hpp"
#include "git/libgit2.hpp"
#include "git/object_id.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <optional>
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

LaterDeflate::~LaterDeflate() {
  if (m_helper.joinable()) {
    {
      const std::lock_guard lock(m_handed.mutex);
      m_handed.stop = true;
    }
    m_handed.changed.notify_all();
  }
  // m_helper joins.
}

void LaterDeflate::add(fs::path file, std::string header,
                       std::shared_ptr<const std::string> bytes) {
  m_queued.push_back(Queued{std::move(file), std::move(header), std::move(bytes)});
}

void LaterDeflate::start() {
  if (m_queued.empty()) {
    return;
  }
  {
    const std::lock_guard lock(m_handed.mutex);
    for (auto& queued : m_queued) {
      m_handed.work.push_back(std::move(queued));
    }
  }
  m_queued.clear();
  m_handed.changed.notify_all();
  if (!m_helper.joinable()) {
    m_helper = std::jthread([&handed = m_handed] { deflate_handed(handed); });
  }
}

void LaterDeflate::deflate_handed(Handed& handed) {
  std::unique_lock lock(handed.mutex);
  for (;;) {
    handed.changed.wait(lock, [&] { return !handed.work.empty() || handed.stop; });
    if (handed.work.empty()) {
      return; // stopped, and all done
    }
    std::optional<Queued> next(std::move(handed.work.front()));
    handed.work.pop_front();
    handed.working = true;
    lock.unlock();
    // Flushed before the rename: the stored file it replaces was flushed
    // by the commit, and a crash must leave one or the other whole. What
    // fails leaves the stored file, the same object.
    std::string deflated;
    if (put_deflated(deflated, next->header + *next->bytes)) {
      (void)put_file(next->file.parent_path(), next->file, deflated, true);
    }
    next.reset(); // the bytes let go before busy() can say so
    lock.lock();
    handed.working = false;
    handed.changed.notify_all();
  }
}

bool LaterDeflate::busy() const {
  const std::lock_guard lock(m_handed.mutex);
  return m_handed.working || !m_handed.work.empty();
}

void LaterDeflate::wait() const {
  std::unique_lock lock(m_handed.mutex);
  m_handed.changed.wait(lock, [&] { return !m_handed.working && m_handed.work.empty(); });
}

int write_loose(git_repository* repository, git_object_t type, std::string bytes, git_oid& out,
                LaterDeflate* later) {
  if (!object_id(type, bytes, out)) {
    return fail("cannot hash an object");
  }
  return write_loose_hashed(repository, type, std::make_shared<const std::string>(std::move(bytes)),
                            out, later);
}

int write_loose_hashed(git_repository* repository, git_object_t type,
                       std::shared_ptr<const std::string> bytes, const git_oid& id,
                       LaterDeflate* later) {
  std::string header = object_header(type, bytes->size());
  Owned<git_odb, git_odb_free> odb;
  if (const int code = git_repository_odb(&odb.pointer, repository); code != 0) {
    return code;
  }
  if (git_odb_exists(odb.pointer, &id) != 0) {
    return 0;
  }
  const auto objects = objects_folder(repository);
  if (!objects) {
    return GIT_ERROR;
  }
  const std::string hex = to_hex(id);
  const fs::path name = *objects / hex.substr(0, 2) / hex.substr(2);
  if (later != nullptr && bytes->size() >= LaterDeflate::k_from) {
    // One buffer per thread: 1.2 MB made afresh for each commit is 300
    // pages for the kernel to clear.
    thread_local std::string stored;
    stored.clear();
    put_stored(stored, {header, *bytes});
    if (const int code = put_file(name.parent_path(), name, stored); code != 0) {
      return code;
    }
    later->add(name, std::move(header), std::move(bytes));
    return 0;
  }
  std::string deflated;
  if (!put_deflated(deflated, header + *bytes)) {
    return fail("cannot deflate an object");
  }
  return put_file(name.parent_path(), name, deflated);
}

} // namespace engram::git::detail
