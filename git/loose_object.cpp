// Loose object: written as git writes one (see loose_object.hpp).
#include "git/loose_object.hpp"

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

namespace engram::git::detail {

namespace {

namespace fs = std::filesystem;

int fail(const std::string& message) {
  git_error_set_str(GIT_ERROR_OS, message.c_str());
  return GIT_ERROR;
}

// Writes `bytes` to a new file in `folder` and renames it to `name`, read-only
// as git leaves objects.
int put_file(const fs::path& folder, const fs::path& name, const std::string& bytes) {
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
  const bool written = write_all(descriptor, bytes) && ::fchmod(descriptor, 0444) == 0;
  const int error = errno;
  if (::close(descriptor) != 0 || !written || ::rename(temporary.c_str(), name.c_str()) != 0) {
    const int why = written ? errno : error;
    ::unlink(temporary.c_str());
    return fail("cannot write the object '" + name.string() + "': " + std::strerror(why));
  }
  return 0;
}

} // namespace

int write_loose(git_repository* repository, git_object_t type, std::string_view bytes,
                git_oid& out) {
  std::string object = object_header(type, bytes.size());
  object.append(bytes);
  if (!sha1({object}, out.id)) {
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
  std::string deflated;
  if (!put_deflated(deflated, object)) {
    return fail("cannot deflate an object");
  }
  return put_file(objects / hex.substr(0, 2), objects / hex.substr(0, 2) / hex.substr(2), deflated);
}

} // namespace engram::git::detail
