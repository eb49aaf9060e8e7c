// Loose object: written as git writes one (see loose_object.hpp).
#include "git/loose_object.hpp"

#include "git/deflate.hpp"
#include "git/libgit2.hpp"

#include <array>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <openssl/evp.h>
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

// The object's id: the SHA-1 of its header and bytes.
bool hash(std::string_view object, git_oid& out) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  if (EVP_Digest(object.data(), object.size(), digest.data(), &length, EVP_sha1(), nullptr) != 1 ||
      length != GIT_OID_RAWSZ) {
    return false;
  }
  return git_oid_fromraw(&out, digest.data()) == 0;
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
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t wrote = ::write(descriptor, bytes.data() + done, bytes.size() - done);
    if (wrote < 0 && errno == EINTR) {
      continue;
    }
    if (wrote <= 0) {
      break;
    }
    done += static_cast<std::size_t>(wrote);
  }
  const int error = errno;
  const bool written = done == bytes.size() && ::fchmod(descriptor, 0444) == 0;
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
  std::string object = git_object_type2string(type);
  object += ' ';
  object += std::to_string(bytes.size());
  object += '\0';
  object.append(bytes);
  if (!hash(object, out)) {
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
